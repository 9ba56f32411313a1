//! The variables that `for` expressions and `%{ for }` directives bind: which one a name
//! at an offset is, where it is used, and whether renaming it would change what a name
//! means. No declaration owns them, so references and rename read them from the tree.

use pcl_syntax::SyntaxKind::*;
use pcl_syntax::{SyntaxNode, SyntaxToken, TextRange, TextSize, TokenAtOffset};
use smol_str::SmolStr;

/// A variable of one `for`: the `for` (expression or template directive), the variable's
/// name and where it is declared.
pub(crate) struct ForVariable {
    binder: SyntaxNode,
    name: SmolStr,
    pub(crate) declared: TextRange,
}

/// The `for` variable named at `offset` in `root`: its declaration, or a use of it.
pub(crate) fn for_variable_at(root: &SyntaxNode, offset: TextSize) -> Option<ForVariable> {
    let offset = offset.min(root.text_range().end());
    let token = match root.token_at_offset(offset) {
        TokenAtOffset::Single(token) => token,
        TokenAtOffset::Between(_, right) if right.kind() == IDENT => right,
        TokenAtOffset::Between(left, _) => left,
        TokenAtOffset::None => return None,
    };
    if token.kind() != IDENT {
        return None;
    }
    let parent = token.parent()?;
    if matches!(parent.kind(), FOR_INTRO | TEMPLATE_FOR_DIRECTIVE) {
        return Some(ForVariable {
            binder: parent.parent()?,
            name: SmolStr::new(token.text()),
            declared: token.text_range(),
        });
    }
    is_reference(&parent)
        .then(|| binder_of(&parent, token.text()))
        .flatten()
}

impl ForVariable {
    /// The uses of the variable, in source order.
    pub(crate) fn uses(&self) -> Vec<TextRange> {
        (self.binder.descendants())
            .filter_map(|node| {
                let name = reference_name(&node)?;
                let bound = name.text() == self.name
                    && binder_of(&node, &self.name).is_some_and(|b| b.binder == self.binder);
                bound.then(|| name.text_range())
            })
            .collect()
    }

    /// Why renaming the variable to `new_name` would change what a name means: the
    /// `for`'s other variable has it, a name in its scope that reads something else would
    /// read the variable, or a use of the variable inside a `for` binding `new_name`
    /// would read that one's.
    pub(crate) fn rename_conflict(&self, new_name: &str) -> Option<String> {
        if new_name == self.name {
            return None;
        }
        let intro = intro(&self.binder)?;
        if variables(&intro).any(|v| v.text() == new_name) {
            return Some(format!(
                "cannot rename to `{new_name}`: the `for` has another variable of that name"
            ));
        }
        let captured = (self.binder.descendants())
            .filter(|node| reference_name(node).is_some_and(|n| n.text() == new_name))
            .filter(|node| !intro.text_range().contains_range(node.text_range()))
            // Unless a `for` inside this one binds it: that stays.
            .any(|node| {
                binder_of(&node, new_name)
                    .is_none_or(|inner| !inner.binder.ancestors().skip(1).any(|a| a == self.binder))
            });
        if captured {
            return Some(format!(
                "cannot rename to `{new_name}`: the `for` reads another `{new_name}`, which \
                 the variable would hide"
            ));
        }
        let shadowed = (self.binder.descendants())
            .filter(|node| reference_name(node).is_some_and(|n| n.text() == self.name))
            .filter(|node| binder_of(node, &self.name).is_some_and(|b| b.binder == self.binder))
            .any(|node| binder_of(&node, new_name).is_some_and(|b| b.binder != self.binder));
        shadowed.then(|| {
            format!(
                "cannot rename to `{new_name}`: an inner `for` has a variable `{new_name}`, \
                 which the uses inside it would read instead"
            )
        })
    }
}

/// The node of a `for` that declares its variables and collection.
fn intro(binder: &SyntaxNode) -> Option<SyntaxNode> {
    match binder.kind() {
        FOR_TUPLE_EXPR | FOR_OBJECT_EXPR | TEMPLATE_FOR => (binder.children())
            .find(|child| matches!(child.kind(), FOR_INTRO | TEMPLATE_FOR_DIRECTIVE)),
        _ => None,
    }
}

/// The variables an intro declares.
fn variables(intro: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    (intro.children_with_tokens())
        .filter_map(|element| element.into_token())
        .filter(|token| token.kind() == IDENT)
}

/// Whether `node` reads a name: a variable expression that is not an object's bare key
/// (`{ name = 1 }` names a field).
fn is_reference(node: &SyntaxNode) -> bool {
    node.kind() == VARIABLE_EXPR && node.parent().is_none_or(|p| p.kind() != OBJECT_KEY)
}

/// The name `node` reads, when it is a reference.
fn reference_name(node: &SyntaxNode) -> Option<SyntaxToken> {
    is_reference(node)
        .then(|| node.first_token())
        .flatten()
        .filter(|token| token.kind() == IDENT)
}

/// The `for` whose variable `name` a reference at `node` reads: the innermost around it
/// that declares `name`, where the reference is not in that `for`'s collection (which is
/// read outside its scope).
fn binder_of(node: &SyntaxNode, name: &str) -> Option<ForVariable> {
    let mut child = node.clone();
    for ancestor in node.ancestors().skip(1) {
        if let Some(intro) = intro(&ancestor)
            && intro != child
            && let Some(variable) = variables(&intro).find(|v| v.text() == name)
        {
            return Some(ForVariable {
                binder: ancestor,
                name: SmolStr::new(name),
                declared: variable.text_range(),
            });
        }
        child = ancestor;
    }
    None
}
