//! The type representation: interned `Ty` ids, their kinds, and the normalising constructors.
//!
//! A `Ty` is a `Copy` id into salsa's interner; equal kinds give equal ids. Constructors
//! normalise as the reference does (union flattening, ordering and deduplication, eventuals
//! stripped inside `output`/`promise`), so structural equality is id equality.

use std::cell::RefCell;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use smol_str::SmolStr;

use crate::{ConstValue, Db, NamedObject, eventuals, render::display};

/// A property name. `Arc<str>` rather than the `SmolStr` used elsewhere: names sit in
/// tuples with types inside memoized values, and salsa implements its value trait for
/// `Arc<str>` but not for `SmolStr` (which the orphan rule keeps us from adding).
pub type Name = Arc<str>;

/// A PCL type: a small `Copy` id of an interned [`TyKind`].
#[salsa::interned(revisions = usize::MAX, debug)]
pub struct Ty<'db> {
    #[returns(ref)]
    pub kind: TyKind<'db>,
}

/// The shape of a type. Build compound kinds through the constructors on [`Ty`], which
/// normalise; interning a kind directly skips that.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub enum TyKind<'db> {
    /// The null value's type; `union(T, none)` is an optional `T`.
    None,
    Bool,
    /// An integer of any size.
    Int,
    Number,
    String,
    /// A resource id: a string that is distinct in the type system.
    Id,
    /// Any value; converts to everything unsafely.
    Dynamic,
    /// A named opaque type: `Archive`, `Asset`, or a schema token with no definition.
    Opaque(SmolStr),
    List(Ty<'db>),
    /// A map with string keys.
    Map(Ty<'db>),
    Set(Ty<'db>),
    Tuple(Box<[Ty<'db>]>),
    /// Properties sorted by name, without duplicates.
    Object(Box<[(Name, Ty<'db>)]>),
    /// At least two members (or none at all), flattened, ordered by display, deduplicated.
    Union(Box<[Ty<'db>]>),
    Output(Ty<'db>),
    Promise(Ty<'db>),
    /// The type of one literal value; the first field is the value's own type.
    Const(Ty<'db>, ConstValue),
    Enum(EnumTy<'db>),
    /// A schema object type, known by identity; its properties come from the database
    /// on demand ([`crate::object_properties`]), so it may refer to itself.
    Named(NamedObject<'db>),
}

/// A schema enum: a token, the values' type and the allowed values (at least one).
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct EnumTy<'db> {
    pub token: SmolStr,
    pub underlying: Ty<'db>,
    pub values: Box<[ConstValue]>,
}

/// The properties of an object type as a key to intern it by (sorted, without duplicate
/// names): hashed and compared as the `TyKind::Object` they make, which is built only
/// when the interner has not got it.
struct ObjectKey<'a, 'db, N>(&'a [(N, Ty<'db>)], Option<&'a PropertyNames>);

impl<N: AsRef<str>> Hash for ObjectKey<'_, '_, N> {
    // As the derived `Hash` of `TyKind` hashes an object: its variant, then the slice of
    // properties (its length, then each name as a `str` and each type).
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&TyKind::Object(Box::default())).hash(state);
        state.write_usize(self.0.len());
        for (name, ty) in self.0 {
            name.as_ref().hash(state);
            ty.hash(state);
        }
    }
}

impl<'db, N: AsRef<str>> salsa::HashEqLike<ObjectKey<'_, 'db, N>> for TyKind<'db> {
    fn eq(&self, key: &ObjectKey<'_, 'db, N>) -> bool {
        match self {
            TyKind::Object(properties) => {
                properties.len() == key.0.len()
                    && (properties.iter().zip(key.0))
                        .all(|((a, at), (b, bt))| at == bt && **a == *b.as_ref())
            }
            _ => false,
        }
    }
}

impl<'db, N: AsRef<str>> salsa::Lookup<TyKind<'db>> for ObjectKey<'_, 'db, N> {
    fn into_owned(self) -> TyKind<'db> {
        let name = |n: &N| match self.1 {
            Some(names) => names.get(n.as_ref()),
            None => Name::from(n.as_ref()),
        };
        TyKind::Object((self.0.iter()).map(|(n, t)| (name(n), *t)).collect())
    }
}

/// The property names of the object types a database interns, kept once each: every
/// object literal with a literal value in it has a type of its own (the value's constant
/// type), and each would otherwise copy its names (about 1% of a check's memory at 10k
/// resources). A database's clones share it (`Db::property_names`).
#[derive(Clone, Default, Debug)]
pub struct PropertyNames(Arc<Mutex<FxHashSet<Name>>>);

impl PropertyNames {
    fn get(&self, name: &str) -> Name {
        let mut names = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(name) = names.get(name) {
            return name.clone();
        }
        let name = Name::from(name);
        names.insert(name.clone());
        name
    }
}

/// The primitive types, each interned once per database: the checker asks for them at
/// almost every expression, and looking one up in the interner costs a hash, a lock and
/// a dependency edge each time. A database keeps one (`Db::primitive_types`); interned
/// types are immortal, so an id stays valid for the database's life and its clones.
#[derive(Clone, Default, Debug)]
pub struct PrimitiveTypes {
    ids: [std::sync::OnceLock<salsa::Id>; PRIMITIVES],
}

const PRIMITIVES: usize = 7;

/// The types, pairs of types, traversal steps, optional and input types and literal
/// targets one database handle interned or computed: its own view in front of salsa's
/// interners, whose shard locks two checking threads otherwise take turns at (interning
/// was 12% of the samples of a check of 31k resources on two threads, 6% on one). A
/// handle's clones start with an empty one (each checking worker has its own handle), so
/// it is never shared. Sound because all are
/// immortal: an id, once interned, means the same value for the life of the database and
/// its clones, and salsa records no dependency edge on interning an immortal value (only
/// the current revision, for ids that may be reused, which immortal ones never are).
#[derive(Default, Debug)]
pub struct TypeCache {
    /// Types by the hash of their kind.
    pub(crate) kinds: IdsByHash,
    /// The memo keys of relations between two types.
    pairs: RefCell<FxHashMap<(salsa::Id, salsa::Id), salsa::Id>>,
    /// Traversal steps by the hash of receiver and key.
    pub(crate) steps: IdsByHash,
    /// `union(T, none)` by `T`: normalising a union sorts its members by their display
    /// strings, a memo lookup each (a twelfth of checking a resource's inputs, where every
    /// `==` takes an optional operand).
    optionals: TypesByType,
    /// `In(T)` by `T` (`eventuals::input_type`): checking asks for it at every input and
    /// at every property of an object given to one.
    pub(crate) input_types: TypesByType,
    /// What a literal given for a type is checked against, by the type and which target
    /// (`literal_targets`): asked at every object and tuple literal given to an input.
    pub(crate) literal_targets:
        Kept<(salsa::Id, crate::literal_targets::LiteralTarget), Option<salsa::Id>>,
    /// Immortal query keys other crates intern again and again, by their kind (a type of
    /// theirs) and the hash of their value ([`TypeCache::interned_key`]).
    keys: RefCell<FxHashMap<(std::any::TypeId, u64), salsa::Id>>,
}

impl TypeCache {
    /// The id of an immortal interned value that is made again and again (a resource
    /// token, at every resource and every reference to one): the one this handle interned
    /// before when `matches` says it is the value asked for, else `intern`'s, kept. `Kind`
    /// tells apart the caller's kinds of keys, `hash` is the value's.
    pub fn interned_key<Kind: 'static>(
        &self,
        hash: u64,
        matches: impl FnOnce(salsa::Id) -> bool,
        intern: impl FnOnce() -> salsa::Id,
    ) -> salsa::Id {
        let key = (std::any::TypeId::of::<Kind>(), hash);
        let cached = self.keys.borrow().get(&key).copied();
        if let Some(id) = cached.filter(|&id| matches(id)) {
            return id;
        }
        let id = intern();
        self.keys.borrow_mut().insert(key, id);
        id
    }
}

/// Values of a function, kept by what they were asked of.
#[derive(Debug)]
pub(crate) struct Kept<K, V>(RefCell<FxHashMap<K, V>>);

impl<K, V> Default for Kept<K, V> {
    fn default() -> Kept<K, V> {
        Kept(RefCell::new(FxHashMap::default()))
    }
}

impl<K: Hash + Eq + Copy, V: Copy> Kept<K, V> {
    /// The value kept for `key`, else `compute`'s, kept (not borrowed while it computes,
    /// which may ask again for others).
    pub(crate) fn get_or_compute(&self, key: K, compute: impl FnOnce() -> V) -> V {
        let cached = self.0.borrow().get(&key).copied();
        if let Some(value) = cached {
            return value;
        }
        let computed = compute();
        self.0.borrow_mut().insert(key, computed);
        computed
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

/// A function of one type, kept by the type it was asked of.
pub(crate) type TypesByType = Kept<salsa::Id, salsa::Id>;

impl TypesByType {
    /// [`Kept::get_or_compute`] of a type.
    pub(crate) fn type_or_compute<'db>(
        &self,
        ty: Ty<'db>,
        compute: impl FnOnce() -> Ty<'db>,
    ) -> Ty<'db> {
        use salsa::plumbing::{AsId, FromId};
        Ty::from_id(self.get_or_compute(ty.as_id(), || compute().as_id()))
    }
}

/// Interned ids by the hash of their value; a hash shared by two values keeps the later,
/// so a hit is checked against the value asked for.
#[derive(Default, Debug)]
pub(crate) struct IdsByHash(pub(crate) RefCell<FxHashMap<u64, salsa::Id>>);

impl IdsByHash {
    /// The id cached under `hash`, if it `matches`.
    pub(crate) fn find(
        &self,
        hash: u64,
        matches: impl FnOnce(salsa::Id) -> bool,
    ) -> Option<salsa::Id> {
        let cached = self.0.borrow().get(&hash).copied();
        cached.filter(|&id| matches(id))
    }

    /// Cache `id` under `hash`, in place of what was there.
    pub(crate) fn remember(&self, hash: u64, id: salsa::Id) {
        self.0.borrow_mut().insert(hash, id);
    }
}

/// An immortal interned key (`Key`) made again and again, through the handle's cache when it
/// has one ([`TypeCache::interned_key`]), else `intern`'s: `Kind` tells the caller's kinds
/// of keys apart (the key's own type with `'static`), `hash` is the value's, and `matches`
/// tells a hit from another value with that hash.
pub fn cached_key<Kind: 'static, Key: salsa::plumbing::AsId + salsa::plumbing::FromId>(
    db: &dyn Db,
    hash: u64,
    matches: impl FnOnce(Key) -> bool,
    intern: impl FnOnce() -> Key,
) -> Key {
    let Some(cache) = db.type_cache() else {
        return intern();
    };
    let id = cache.interned_key::<Kind>(hash, |id| matches(Key::from_id(id)), || intern().as_id());
    Key::from_id(id)
}

// A panic while the cache is borrowed leaves it holding only ids of what was interned.
impl std::panic::RefUnwindSafe for TypeCache {}

impl Clone for TypeCache {
    fn clone(&self) -> Self {
        TypeCache::default()
    }
}

impl<'db> Ty<'db> {
    /// The primitive type `kind` makes (`slot` is its place in [`PrimitiveTypes`]). The
    /// kind is made only to be interned: one made at each call and dropped (a `TyKind`
    /// has heap-owning variants, so dropping one is a call) cost as much as the lookup.
    #[inline]
    fn primitive(db: &'db dyn Db, slot: usize, kind: fn() -> TyKind<'db>) -> Ty<'db> {
        use salsa::plumbing::{AsId, FromId};
        match db.primitive_types() {
            Some(cache) => {
                Ty::from_id(*cache.ids[slot].get_or_init(|| Ty::new(db, kind()).as_id()))
            }
            None => Ty::new(db, kind()),
        }
    }

    /// The type of `key` (a kind, or what hashes and compares as one), through the
    /// handle's [`TypeCache`] when it has one.
    fn interned<K>(db: &'db dyn Db, key: K) -> Ty<'db>
    where
        K: Hash + salsa::Lookup<TyKind<'db>>,
        TyKind<'db>: salsa::HashEqLike<K>,
    {
        use salsa::plumbing::{AsId, FromId};
        let Some(cache) = db.type_cache() else {
            return Ty::new(db, key);
        };
        let hash = FxBuildHasher.hash_one(&key);
        let matches = |id| salsa::HashEqLike::eq(Ty::from_id(id).kind(db), &key);
        if let Some(id) = cache.kinds.find(hash, matches) {
            return Ty::from_id(id);
        }
        let ty = Ty::new(db, key);
        cache.kinds.remember(hash, ty.as_id());
        ty
    }

    #[inline]
    pub fn none(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 0, || TyKind::None)
    }

    #[inline]
    pub fn bool(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 1, || TyKind::Bool)
    }

    #[inline]
    pub fn int(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 2, || TyKind::Int)
    }

    #[inline]
    pub fn number(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 3, || TyKind::Number)
    }

    #[inline]
    pub fn string(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 4, || TyKind::String)
    }

    #[inline]
    pub fn id(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 5, || TyKind::Id)
    }

    #[inline]
    pub fn dynamic(db: &'db dyn Db) -> Ty<'db> {
        Ty::primitive(db, 6, || TyKind::Dynamic)
    }

    pub fn opaque(db: &'db dyn Db, name: &str) -> Ty<'db> {
        Ty::interned(db, TyKind::Opaque(SmolStr::new(name)))
    }

    pub fn list(db: &'db dyn Db, element: Ty<'db>) -> Ty<'db> {
        Ty::interned(db, TyKind::List(element))
    }

    pub fn map(db: &'db dyn Db, element: Ty<'db>) -> Ty<'db> {
        Ty::interned(db, TyKind::Map(element))
    }

    pub fn set(db: &'db dyn Db, element: Ty<'db>) -> Ty<'db> {
        Ty::interned(db, TyKind::Set(element))
    }

    pub fn tuple(db: &'db dyn Db, elements: impl IntoIterator<Item = Ty<'db>>) -> Ty<'db> {
        Ty::interned(db, TyKind::Tuple(elements.into_iter().collect()))
    }

    /// An object type; when a name repeats, the last property wins. Names may be borrowed
    /// (`&str`) or owned: the interner is asked with them as they are, and copies them
    /// only for a type it has not seen.
    pub fn object<N: AsRef<str>>(
        db: &'db dyn Db,
        properties: impl IntoIterator<Item = (N, Ty<'db>)>,
    ) -> Ty<'db> {
        let mut properties: Vec<(N, Ty<'db>)> = properties.into_iter().collect();
        // Stable sort, then keep the last of each run of equal names (`dedup_by` keeps
        // the earlier of two: swap the later into its place first).
        if !properties.is_sorted_by(|a, b| a.0.as_ref() < b.0.as_ref()) {
            properties.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
            properties.dedup_by(|later, earlier| {
                let same = later.0.as_ref() == earlier.0.as_ref();
                if same {
                    std::mem::swap(later, earlier);
                }
                same
            });
        }
        Ty::interned(db, ObjectKey(&properties, db.property_names()))
    }

    /// The object type without properties.
    pub fn empty_object(db: &'db dyn Db) -> Ty<'db> {
        Ty::object(db, [] as [(&str, Ty<'db>); 0])
    }

    /// The normalised union: members of member unions are spliced in, members are sorted
    /// by their display string, adjacent equal members are dropped, and a single member
    /// stands for itself.
    pub fn union(db: &'db dyn Db, members: impl IntoIterator<Item = Ty<'db>>) -> Ty<'db> {
        let mut flat: Vec<Ty<'db>> = Vec::new();
        for member in members {
            match member.kind(db) {
                TyKind::Union(inner) => flat.extend(inner.iter().copied()),
                _ => flat.push(member),
            }
        }
        flat.sort_by(|a, b| display(db, *a).cmp(display(db, *b)));
        flat.dedup();
        if flat.len() == 1 {
            return flat[0];
        }
        Ty::interned(db, TyKind::Union(flat.into_boxed_slice()))
    }

    /// `union(T, none)`, through the handle's [`TypeCache`] when it has one.
    pub fn optional(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
        let optional = || Ty::union(db, [ty, Ty::none(db)]);
        match db.type_cache() {
            Some(cache) => cache.optionals.type_or_compute(ty, optional),
            None => optional(),
        }
    }

    /// `output(T)`, with every output and promise inside `T` resolved first.
    pub fn output(db: &'db dyn Db, element: Ty<'db>) -> Ty<'db> {
        Ty::interned(db, TyKind::Output(eventuals::resolve_outputs(db, element)))
    }

    /// `promise(T)`, with the promises inside `T` (outside any output) resolved first.
    pub fn promise(db: &'db dyn Db, element: Ty<'db>) -> Ty<'db> {
        Ty::interned(
            db,
            TyKind::Promise(eventuals::resolve_promises(db, element)),
        )
    }

    /// The schema object type `object`.
    pub fn named(db: &'db dyn Db, object: NamedObject<'db>) -> Ty<'db> {
        Ty::interned(db, TyKind::Named(object))
    }

    /// The type of the literal `value`, whose own type is `underlying`.
    pub fn constant(db: &'db dyn Db, underlying: Ty<'db>, value: ConstValue) -> Ty<'db> {
        Ty::interned(db, TyKind::Const(underlying, value))
    }

    /// An enum type; `values` must not be empty.
    pub fn enumeration(
        db: &'db dyn Db,
        token: &str,
        underlying: Ty<'db>,
        values: impl IntoIterator<Item = ConstValue>,
    ) -> Ty<'db> {
        Ty::interned(
            db,
            TyKind::Enum(EnumTy {
                token: SmolStr::new(token),
                underlying,
                values: values.into_iter().collect(),
            }),
        )
    }

    /// The type a literal value has on its own: `int` for whole numbers, `number` for the
    /// rest, and so on.
    pub fn of_value(db: &'db dyn Db, value: &ConstValue) -> Ty<'db> {
        match value {
            ConstValue::Null => Ty::none(db),
            ConstValue::Bool(_) => Ty::bool(db),
            ConstValue::Number(number) if number.is_integer() => Ty::int(db),
            ConstValue::Number(_) => Ty::number(db),
            ConstValue::String(_) => Ty::string(db),
        }
    }

    /// Whether this is `dynamic` (interned once: the same type, without reading a kind).
    pub fn is_dynamic(self, db: &'db dyn Db) -> bool {
        self == Ty::dynamic(db)
    }

    /// Whether this is `none`.
    pub fn is_none(self, db: &'db dyn Db) -> bool {
        self == Ty::none(db)
    }
}

/// An ordered pair of types: the memo key of binary relations. Immortal, so memos are
/// never recycled.
#[salsa::interned(revisions = usize::MAX, debug)]
pub(crate) struct TyPair<'db> {
    #[returns(copy)]
    pub(crate) first: Ty<'db>,
    #[returns(copy)]
    pub(crate) second: Ty<'db>,
}

impl<'db> TyPair<'db> {
    /// The pair `(first, second)`, through the handle's [`TypeCache`] when it has one.
    pub(crate) fn of(db: &'db dyn Db, first: Ty<'db>, second: Ty<'db>) -> TyPair<'db> {
        use salsa::plumbing::{AsId, FromId};
        let Some(cache) = db.type_cache() else {
            return TyPair::new(db, first, second);
        };
        let key = (first.as_id(), second.as_id());
        let cached = cache.pairs.borrow().get(&key).copied();
        let id = cached.unwrap_or_else(|| {
            let id = TyPair::new(db, first, second).as_id();
            cache.pairs.borrow_mut().insert(key, id);
            id
        });
        TyPair::from_id(id)
    }
}
