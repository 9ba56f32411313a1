//! Where a property written at the wrong level belongs: `replicas` among a Deployment's
//! inputs is a property of its `spec`; `containerPort` in a container, of its `ports`'
//! elements. Asked only for a name that is not known where it is written.

use pcl_types::{Ty, object_properties, plain_alternatives};

/// The note for `name`, when exactly one of `fields` (by name and type) holds a property
/// of that name directly: an object, or a list or set of objects.
#[cold]
pub(crate) fn misplaced_property_note<'a, 'db: 'a>(
    db: &'db dyn pcl_types::Db,
    fields: impl Iterator<Item = (&'a str, Ty<'db>)>,
    name: &str,
) -> Option<String> {
    let holds = |ty: Ty<'db>| {
        plain_alternatives(db, ty).any(|alternative| {
            object_properties(db, alternative).is_some_and(|p| p.iter().any(|(n, _)| &**n == name))
        })
    };
    let mut homes = fields.filter_map(|(field, ty)| {
        let in_elements = crate::inference::list_element_objects(db, ty)
            .any(|(_, properties)| properties.iter().any(|(n, _)| &**n == name));
        match (holds(ty), in_elements) {
            (true, _) => Some(format!(
                "`{name}` is a property of `{field}`: write it inside `{field} = {{ {name} = ... }}`"
            )),
            (false, true) => Some(format!(
                "`{name}` is a property of the elements of `{field}`: write `{field} = [{{ {name} = ... }}]`"
            )),
            (false, false) => None,
        }
    });
    let home = homes.next()?;
    homes.next().is_none().then_some(home)
}
