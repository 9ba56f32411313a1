# A TypeScript program pasted whole: one error per statement, each saying what PCL writes;
# a `;` ending a line that has an error already is not another one.
import * as random from "@pulumi/random";

const config = new pulumi.Config();
let prefix = config.get("prefix");
var count = 3;
const pet = new random.RandomPet(`pet-${prefix}`, {
    length: count,
});
const plain = 1;
export const petName = pet.id;
export const greeting = `hello ${pet.id}`;
ok = 1;
const answer = await lookup(1);
