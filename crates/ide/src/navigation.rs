//! Questions an editor asks about a position or a file: hover (the type of the expression
//! or declaration under the cursor, with schema descriptions of resources), go to
//! definition, and the outline of a file's declarations.

use pcl_sema::{
    DeclId, DeclKind, Expr, Located, Resolution, Site, bind, body, body_with_source_map,
    decl_offset, decl_ty, file_items, infer, program_decls,
};
use pcl_syntax::{TextRange, TextSize};
use smol_str::SmolStr;

use crate::RootDatabase;
use crate::analysis::{Analysis, Cancellable, site_range};
use crate::docs::render_description;
use crate::for_variables::{ForVariable, for_variable_at};

/// What hovering shows: markdown, and the range it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

/// A place to navigate to: the whole declaration and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    pub path: SmolStr,
    pub full_range: TextRange,
    pub focus_range: TextRange,
}

/// One completion: what to insert, a one-line description and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub detail: String,
    pub kind: CompletionKind,
    /// A required input (editors list those first).
    pub required: bool,
    /// The schema's description of an input, as markdown.
    pub documentation: Option<String>,
    /// The text the item replaces when it is not the word at the cursor: the whole
    /// contents of a type token's quotes (`random:index/ran`), whose `:` and `/` end words
    /// in editors.
    pub replace: Option<TextRange>,
}

impl CompletionItem {
    /// An item that is no required input and has no documentation.
    fn plain(label: impl Into<String>, detail: impl Into<String>, kind: CompletionKind) -> Self {
        CompletionItem {
            label: label.into(),
            detail: detail.into(),
            kind,
            required: false,
            documentation: None,
            replace: None,
        }
    }

    /// The item, replacing `range` (see [`CompletionItem::replace`]).
    fn replacing(self, range: Option<TextRange>) -> Self {
        CompletionItem {
            replace: range,
            ..self
        }
    }
}

/// What a completion names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A declaration in scope.
    Declaration,
    Builtin,
    /// An input, option, object field or attribute.
    Field,
    /// A resource type token, in a resource's type label.
    ResourceType,
    /// A function token, in the first argument of `invoke`.
    FunctionToken,
    /// A block keyword: `resource`, `config`, ... at the top level, `options` in a body.
    Keyword,
    /// A type, in a config's type label.
    ConfigType,
    /// A value of the enum an input, option or field expects.
    EnumValue,
}

/// One declaration of a file's outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSymbol {
    pub name: SmolStr,
    pub kind: DeclKind,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    /// The declaration's type, in the reference's syntax.
    pub detail: String,
}

impl Analysis {
    /// The type of what is under `offset` in `path`.
    pub fn hover(&self, path: &str, offset: TextSize) -> Cancellable<Option<HoverResult>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let (decl, relative) = self.decl_at(path, offset)?;
            let (file, _) = self.file_and_program(path)?;
            if let Some(found) = syntax_hover(db, file, decl, offset) {
                return Some(found);
            }
            let start = decl_offset(db, decl);
            // Outside expressions: the declaration, over the label or keyword under the
            // cursor (else its name).
            let header = || {
                let root = pcl_sema::BlockId::ROOT;
                [
                    Site::Label(root, 0),
                    Site::Label(root, 1),
                    Site::BlockType(root),
                ]
                .into_iter()
                .filter_map(|site| site_range(db, Located::new(decl, site)))
                .find(|range| range.contains_inclusive(offset))
                .or_else(|| site_range(db, Located::new(decl, Site::Name)))
            };
            let (expr, range) = innermost_expr(db, decl, relative)?.map_or_else(
                || (None, header()),
                |(id, range)| (Some(id), Some(range + start)),
            );
            let range = range?;
            let markdown = match expr {
                Some(id) => {
                    let ty = pcl_sema::expr_ty(db, decl, id)?;
                    let target = referenced(db, decl, id);
                    let described = target.map(|t| describe(db, t));
                    let ty = pcl_types::wrapped(&pcl_types::readable(db, ty), 0);
                    described.unwrap_or_else(|| format!("```pcl\n{ty}\n```"))
                }
                None => describe(db, decl),
            };
            Some(HoverResult { range, markdown })
        })
    }

    /// The declaration a name under `offset` refers to.
    pub fn goto_definition(
        &self,
        path: &str,
        offset: TextSize,
    ) -> Cancellable<Vec<NavigationTarget>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((decl, relative)) = self.decl_at(path, offset) else {
                return Vec::new();
            };
            if let Some(target) = component_source_at(db, decl, offset) {
                return vec![target];
            }
            if let Some(variable) = self.for_variable_at(path, offset) {
                return vec![NavigationTarget {
                    path: SmolStr::new(path),
                    full_range: variable.declared,
                    focus_range: variable.declared,
                }];
            }
            let (file, _) = match self.file_and_program(path) {
                Some(found) => found,
                None => return Vec::new(),
            };
            if let Some(target) = syntax_definition(db, file, decl, offset) {
                return vec![target];
            }
            let Some(Some((id, _))) = innermost_expr(db, decl, relative) else {
                return Vec::new();
            };
            if let Some(target) = component_output(db, decl, id) {
                return target_of(db, target).into_iter().collect();
            }
            referenced(db, decl, id)
                .and_then(|target| target_of(db, target))
                .into_iter()
                .collect()
        })
    }

    /// The declarations of a file, in source order.
    pub fn document_symbols(&self, path: &str) -> Cancellable<Vec<FileSymbol>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((file, program)) = self.file_and_program(path) else {
                return Vec::new();
            };
            (program_decls(db, program).iter())
                .filter(|d| d.file(db) == file)
                .filter_map(|&decl| {
                    let target = target_of(db, decl)?;
                    Some(FileSymbol {
                        name: decl.name(db).clone(),
                        kind: decl.kind(db),
                        full_range: target.full_range,
                        focus_range: target.focus_range,
                        detail: pcl_types::readable(db, shown_ty(db, decl)).clone(),
                    })
                })
                .collect()
        })
    }

    /// The declaration of `path` that contains `offset`, and the offset relative to it.
    fn decl_at(&self, path: &str, offset: TextSize) -> Option<(DeclId<'_>, TextSize)> {
        let db = self.db();
        let (file, program) = self.file_and_program(path)?;
        let items = file_items(db, file);
        program_decls(db, program).iter().copied().find_map(|decl| {
            if decl.file(db) != file {
                return None;
            }
            let item = items.get(decl.key(db))?;
            let range = TextRange::at(item.offset, item.syntax.text_len());
            (range.contains(offset) || range.end() == offset).then(|| (decl, offset - item.offset))
        })
    }
}

impl Analysis {
    /// [`Analysis::decl_at`], or else the declaration just before `offset` whose body's
    /// brace is not closed yet, with only blanks between (a line typed in a body before its
    /// `}` is: the blanks then belong to what follows the declaration).
    fn decl_at_or_open_before(
        &self,
        path: &str,
        offset: TextSize,
    ) -> Option<(DeclId<'_>, TextSize)> {
        if let Some(found) = self.decl_at(path, offset) {
            return Some(found);
        }
        let db = self.db();
        let (file, program) = self.file_and_program(path)?;
        let (text, items) = (file.text(db), file_items(db, file));
        program_decls(db, program).iter().copied().find_map(|decl| {
            if decl.file(db) != file {
                return None;
            }
            let item = items.get(decl.key(db))?;
            let end = item.offset + item.syntax.text_len();
            let blanks = text.get(usize::from(end)..usize::from(offset))?;
            if !blanks.trim().is_empty() {
                return None;
            }
            // A block opened and not closed (a `{` in a string is no block's).
            let root = item.syntax.root();
            let open = root.kind() == pcl_syntax::SyntaxKind::BLOCK
                && root.token(&[pcl_syntax::SyntaxKind::L_CURLY]).is_some()
                && root.token(&[pcl_syntax::SyntaxKind::R_CURLY]).is_none();
            open.then(|| (decl, offset - item.offset))
        })
    }
}

/// The smallest expression of `decl` around `relative`: `Some(None)` when the offset is in
/// the declaration but in no expression.
#[allow(clippy::option_option)]
fn innermost_expr<'db>(
    db: &'db RootDatabase,
    decl: DeclId<'db>,
    relative: TextSize,
) -> Option<Option<(pcl_sema::ExprId, TextRange)>> {
    let map = &body_with_source_map(db, decl).source_map;
    let best = (map.exprs.iter().enumerate())
        .filter(|(_, range)| {
            range.contains(relative) || (range.end() == relative && !range.is_empty())
        })
        .min_by_key(|(_, range)| range.len())
        .map(|(i, range)| (pcl_sema::ExprId(i as u32), *range));
    Some(best)
}

/// The declaration a name expression refers to.
fn referenced<'db>(
    db: &'db RootDatabase,
    decl: DeclId<'db>,
    id: pcl_sema::ExprId,
) -> Option<DeclId<'db>> {
    let body = body(db, decl);
    let Expr::Name(name) = body.expr(id) else {
        return None;
    };
    match bind(db, decl).resolution(body.str(*name))? {
        Resolution::Decl(target) => Some(*target),
        Resolution::Unresolved => None,
    }
}

fn target_of<'db>(db: &'db RootDatabase, decl: DeclId<'db>) -> Option<NavigationTarget> {
    let item = file_items(db, decl.file(db)).get(decl.key(db))?;
    Some(NavigationTarget {
        path: decl.file(db).path(db).clone(),
        full_range: TextRange::at(item.offset, item.syntax.text_len()),
        focus_range: site_range(db, Located::new(decl, Site::Name))?,
    })
}

/// The type a declaration is shown with: an output's value type (its declaration type,
/// which nothing can reference, is `dynamic`), else the type references see.
fn shown_ty<'db>(db: &'db RootDatabase, decl: DeclId<'db>) -> pcl_types::Ty<'db> {
    match decl.kind(db) {
        DeclKind::Output => infer(db, decl).value_ty,
        _ => decl_ty(db, decl),
    }
}

/// `kind name: type` of a declaration, with a resource's type token and description, or
/// the `description` a config or output gives itself.
fn describe<'db>(db: &'db RootDatabase, decl: DeclId<'db>) -> String {
    let head = format!("{} {}: ", decl.kind(db).keyword(), decl.name(db));
    let ty = pcl_types::wrapped(&pcl_types::readable(db, shown_ty(db, decl)), head.len());
    let mut text = format!("```pcl\n{head}{ty}\n```");
    if matches!(decl.kind(db), DeclKind::Config | DeclKind::Output)
        && let Some(description) = description_of(db, decl)
    {
        text.push_str(&format!("\n\n{description}"));
    }
    if matches!(
        decl.kind(db),
        DeclKind::Resource | DeclKind::Read | DeclKind::Component
    ) && let Some(label) = body(db, decl).label(pcl_sema::BlockId::ROOT, 1)
    {
        text.push_str(&format!("\n\n`{label}`"));
        if let Some(description) = schema_description(db, label).and_then(|d| d.description) {
            text.push_str(&format!("\n\n{}", render_description(&description)));
        }
    }
    text
}

/// The schema's description of the resource or function `token`, when its package is
/// loaded and has it.
fn schema_description(db: &RootDatabase, token: &str) -> Option<pcl_schema::ItemDescription> {
    let source = pcl_sema::token_package(token).and_then(|p| pcl_schema::package_named(db, p))?;
    let (kind, canonical) = pcl_schema::resolve_token(db, source, token)?;
    pcl_schema::item_description(db, source, kind, &canonical)
        .ok()
        .map(|(described, _)| described)
}

/// Hovers that depend on where the cursor is in the syntax rather than on an
/// expression's type: an input's name in a resource body (its schema type and
/// description), a builtin's name in a call (its signature), and the token of an
/// `invoke` (the function's description).
fn syntax_hover<'db>(
    db: &'db RootDatabase,
    file: pcl_sema::File,
    decl: DeclId<'db>,
    offset: TextSize,
) -> Option<HoverResult> {
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    let tree = pcl_sema::parse(db, file).syntax_node();
    let token = match tree.token_at_offset(offset.min(tree.text_range().end())) {
        pcl_syntax::TokenAtOffset::Single(t) => t,
        pcl_syntax::TokenAtOffset::Between(left, right) => {
            if right.kind() == IDENT {
                right
            } else {
                left
            }
        }
        pcl_syntax::TokenAtOffset::None => return None,
    };
    let parent = token.parent()?;
    let range = token.text_range();
    match parent.kind() {
        // An input's name, in a resource's or component's body.
        ATTRIBUTE if token.kind() == IDENT => {
            let block = parent.parent()?.parent()?;
            let is_declaration_body =
                block.kind() == BLOCK && block.parent()?.parent()?.kind() == SOURCE_FILE;
            if !is_declaration_body
                || !matches!(
                    decl.kind(db),
                    DeclKind::Resource | DeclKind::Read | DeclKind::Component
                )
            {
                return None;
            }
            let context = pcl_sema::FieldsContext::Body;
            let markdown = field_hover(db, decl, &context, &[], token.text())?;
            Some(HoverResult { range, markdown })
        }
        // A key of an object literal whose expected type is known.
        _ if token.kind() == IDENT
            && parent.kind() == VARIABLE_EXPR
            && parent.parent().is_some_and(|p| p.kind() == OBJECT_KEY) =>
        {
            let inside = range.start() + TextSize::from(1);
            let FieldPosition::Object(context, keys) = field_position(db, file, inside) else {
                return None;
            };
            let markdown = field_hover(db, decl, &context, &keys, token.text())?;
            Some(HoverResult { range, markdown })
        }
        // A function's name in a call.
        CALL_EXPR if token.kind() == IDENT => {
            let name = ast::CallExpr::cast(parent)?.name();
            let (_, signature) = pcl_sema::builtin_signature(db, &name)?;
            let summary = pcl_sema::builtin_summary(&name).unwrap_or("A builtin function.");
            Some(HoverResult {
                range,
                markdown: format!("```pcl\n{signature}\n```\n\n{summary}"),
            })
        }
        // The token of `invoke("pkg:module:fn", ..)`.
        _ => {
            let template = parent.ancestors().find(|n| n.kind() == TEMPLATE_EXPR)?;
            let arg_list = template.parent().filter(|n| n.kind() == ARG_LIST)?;
            let call = ast::CallExpr::cast(arg_list.parent()?)?;
            let first = call.arg_list()?.args().next()?;
            if call.name() != "invoke" || first.syntax() != &template {
                return None;
            }
            let ast::Expr::Template(literal) = first else {
                return None;
            };
            let function = literal.literal_value()?;
            let described = schema_description(db, &function)?;
            let mut markdown = format!("```pcl\nfunction {function}\n```");
            if let Some(description) = &described.description {
                markdown.push_str(&format!("\n\n{}", render_description(description)));
            }
            // Its arguments (required first, as written in the schema), then its result.
            for section in &described.sections {
                let mut properties: Vec<&pcl_schema::PropertyDescription> =
                    section.properties.iter().collect();
                properties.sort_by_key(|p| !p.required);
                let lines: Vec<String> = (properties.iter())
                    .map(|p| {
                        let ty = p.shown.as_deref().unwrap_or(&p.ty);
                        let required = if p.required { " (required)" } else { "" };
                        format!("- `{}`: `{ty}`{required}", p.name)
                    })
                    .collect();
                if !lines.is_empty() {
                    markdown.push_str(&format!("\n\n**{}**\n{}", section.title, lines.join("\n")));
                }
            }
            if let Some(result) = &described.result {
                markdown.push_str(&format!("\n\n**result**: `{}`", result.ty));
            }
            Some(HoverResult {
                range: template.text_range(),
                markdown,
            })
        }
    }
}

/// The hover of field `name` where `context` and `keys` lead: its type, whether it is
/// required, what it belongs to, and its description (from the schema, or a component's
/// `config` block).
fn field_hover(
    db: &RootDatabase,
    decl: DeclId<'_>,
    context: &pcl_sema::FieldsContext,
    keys: &[SmolStr],
    name: &str,
) -> Option<String> {
    use pcl_sema::FieldsContext;
    let fields = pcl_sema::field_completions(db, decl, context, keys);
    let field = fields.into_iter().find(|field| field.name == name)?;
    let required = if field.required {
        "required"
    } else {
        "optional"
    };
    let label = body(db, decl).label(pcl_sema::BlockId::ROOT, 1);
    let owner = pcl_sema::fields_owner(db, decl, context, keys);
    let (kind, of, description) = match (context, owner) {
        (_, Some(owner)) => {
            let token = owner.token(db).clone();
            let description = property_description(db, &token, "properties", name);
            ("property", Some(token), description)
        }
        (FieldsContext::Body, None) if decl.kind(db) == DeclKind::Component => {
            let description = component_config(db, decl, name).and_then(|c| description_of(db, c));
            (
                "input",
                label.map(|l| SmolStr::new(format!("component {l}"))),
                description,
            )
        }
        (FieldsContext::Body, None) => {
            let description = label.and_then(|l| property_description(db, l, "inputs", name));
            ("input", label.map(SmolStr::new), description)
        }
        (FieldsContext::InvokeArguments(function), None) if keys.is_empty() => {
            let description = property_description(db, function, "arguments", name);
            ("argument", Some(function.clone()), description)
        }
        (FieldsContext::Options, None) => ("option", None, None),
        _ => ("property", None, None),
    };
    let mut markdown = format!(
        "```pcl\n{kind} {name}: {}\n```\n\n{required} {kind}",
        field.ty
    );
    if let Some(of) = of {
        markdown.push_str(&format!(" of `{of}`"));
    }
    if let Some(description) = description {
        markdown.push_str(&format!("\n\n{}", render_description(&description)));
    }
    Some(markdown)
}

/// The schema's description of property `name` in section `section` of the item
/// `token` (a resource, function or object type).
fn property_description(
    db: &RootDatabase,
    token: &str,
    section: &str,
    name: &str,
) -> Option<String> {
    (schema_description(db, token)?.sections.into_iter())
        .filter(|s| s.title == section)
        .flat_map(|s| s.properties)
        .find(|property| property.name == name)?
        .description
}

/// How a block's label is highlighted: the name a declaration block's first label gives
/// (`resource pet "..."`) as a variable, as its uses are; other labels (a type token, a
/// config's type, a component's source) as types.
fn label_class(label: &pcl_syntax::SyntaxNode) -> TokenClass {
    use pcl_syntax::SyntaxKind::BLOCK_LABEL;
    use pcl_syntax::ast::AstNode;
    let first = std::iter::successors(label.prev_sibling(), |node| node.prev_sibling())
        .all(|sibling| sibling.kind() != BLOCK_LABEL);
    let declares = (label.parent())
        .and_then(pcl_syntax::ast::Block::cast)
        .is_some_and(|block| {
            block.type_name().is_some_and(|name| {
                matches!(
                    name.text(),
                    "resource" | "read" | "config" | "output" | "component"
                )
            })
        });
    match first && declares {
        true => TokenClass::Variable,
        false => TokenClass::Type,
    }
}

/// The names of the attributes set in `decl`'s body, but the one being typed at
/// `offset`. From the text, not the tree: a name being typed on a line of its own turns
/// the lines after it into a syntax error.
fn attributes_set<'db>(
    db: &'db RootDatabase,
    file: pcl_sema::File,
    decl: DeclId<'db>,
    offset: TextSize,
) -> Vec<&'db str> {
    let text = file.text(db);
    let editing = word_at(text, offset);
    let start = usize::from(decl_offset(db, decl));
    (text.get(start..).into_iter())
        .flat_map(body_attribute_names)
        .filter(|name| *name != editing)
        .collect()
}

/// The types a config's type label takes, each replacing the label's quoted `contents`.
fn config_types(contents: Option<TextRange>) -> Vec<CompletionItem> {
    const CONFIG_TYPES: &[(&str, &str)] = &[
        ("string", "a string"),
        ("int", "a whole number"),
        ("number", "a number"),
        ("bool", "true or false"),
        ("list(string)", "a list: list(T)"),
        ("map(string)", "a map from strings: map(T)"),
        ("object({name = string})", "an object of typed fields"),
    ];
    (CONFIG_TYPES.iter())
        .map(|(ty, detail)| {
            CompletionItem::plain(
                (*ty).to_owned(),
                format!("config type: {detail}"),
                CompletionKind::ConfigType,
            )
            .replacing(contents)
        })
        .collect()
}

/// The blocks a program's top level declares, with what each is.
const TOP_LEVEL_KEYWORDS: &[(&str, &str)] = &[
    ("resource", "block: resource NAME \"TYPE\" { inputs }"),
    ("config", "block: config NAME \"TYPE\" { default = ... }"),
    ("output", "block: output NAME { value = ... }"),
    ("component", "block: component NAME \"./DIR\" { inputs }"),
    ("package", "block: package NAME { baseProviderName = ... }"),
    ("pulumi", "block: pulumi { requiredVersionRange = ... }"),
];

/// A block keyword's completion.
fn keyword(word: &str, detail: &str) -> CompletionItem {
    CompletionItem::plain(word, detail, CompletionKind::Keyword)
}

/// A reference at `at`, a site of a declaration's body, when the site is found.
fn reference_at(db: &RootDatabase, at: Located<'_>) -> Option<Reference> {
    Some(Reference {
        path: at.decl.file(db).path(db).clone(),
        range: site_range(db, at)?,
        is_declaration: false,
    })
}

/// The `config` declaration of the program a component instantiates that the component's
/// input `name` sets (by its logical name).
fn component_config<'db>(
    db: &'db RootDatabase,
    component: DeclId<'db>,
    name: &str,
) -> Option<DeclId<'db>> {
    let program = component_program(db, component)?;
    (pcl_sema::program_scope(db, program).names.values().copied()).find(|&config| {
        config.kind(db) == DeclKind::Config && pcl_sema::logical_name(db, config) == name
    })
}

/// The program a component instantiates, when it is loaded.
fn component_program(db: &RootDatabase, component: DeclId<'_>) -> Option<pcl_sema::Program> {
    let source = body(db, component).label(pcl_sema::BlockId::ROOT, 1)?;
    let dir = pcl_sema::join_dir(component.program(db).dir(db), source);
    pcl_sema::program_at(db, &dir)
}

/// The literal `description` attribute of a declaration (a config's or an output's).
fn description_of(db: &RootDatabase, decl: DeclId<'_>) -> Option<String> {
    let body = body(db, decl);
    let attr = body.find_attr(pcl_sema::BlockId::ROOT, "description")?;
    match body.expr(body.attr(attr).value) {
        Expr::String(text) => Some(body.str(*text).to_owned()),
        _ => None,
    }
}

/// One use or the declaration of a name: where, and whether it is the declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub path: SmolStr,
    pub range: TextRange,
    pub is_declaration: bool,
}

impl Analysis {
    /// The declaration under `offset` (its name, or a reference to it) and every
    /// reference to it across the program's files, declaration first.
    pub fn references(&self, path: &str, offset: TextSize) -> Cancellable<Vec<Reference>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            if let Some(variable) = self.for_variable_at(path, offset) {
                let path = SmolStr::new(path);
                let declaration = Reference {
                    path: path.clone(),
                    range: variable.declared,
                    is_declaration: true,
                };
                let uses = (variable.uses().into_iter()).map(|range| Reference {
                    path: path.clone(),
                    range,
                    is_declaration: false,
                });
                return std::iter::once(declaration).chain(uses).collect();
            }
            let Some(target) = self.target_at(path, offset) else {
                return Vec::new();
            };
            let mut res = Vec::new();
            if let Some(range) = site_range(db, Located::new(target, Site::Name)) {
                res.push(Reference {
                    path: target.file(db).path(db).clone(),
                    range,
                    is_declaration: true,
                });
            }
            let name = target.name(db);
            for &decl in program_decls(db, target.program(db)).iter() {
                let resolved = bind(db, decl).resolution(name);
                if resolved != Some(&Resolution::Decl(target)) {
                    continue;
                }
                let body = body(db, decl);
                for (i, expr) in body.exprs.iter().enumerate() {
                    if matches!(expr, Expr::Name(n) if body.str(*n) == name) {
                        let at = Located::new(decl, Site::Expr(pcl_sema::ExprId(i as u32)));
                        res.extend(reference_at(db, at));
                    }
                }
            }
            res.extend(self.component_uses(target));
            res
        })
    }

    /// Where the loaded programs that instantiate `target`'s program as a component name
    /// `target`, a config or output of it: an input in a `component` block, an output's
    /// step after the component's name (`net.subnet`). None when `target` sets a
    /// `__logicalName`, which is what parents use.
    fn component_uses<'db>(&'db self, target: DeclId<'db>) -> Vec<Reference> {
        let db = self.db();
        let kind = target.kind(db);
        let name = target.name(db).as_str();
        if !matches!(kind, DeclKind::Config | DeclKind::Output)
            || pcl_sema::logical_name(db, target) != name
        {
            return Vec::new();
        }
        let program = target.program(db);
        let mut res = Vec::new();
        for parent in self.programs() {
            let decls = program_decls(db, parent);
            let components: Vec<DeclId<'db>> = (decls.iter().copied())
                .filter(|&d| {
                    d.kind(db) == DeclKind::Component && component_program(db, d) == Some(program)
                })
                .collect();
            for &component in components.iter().filter(|_| kind == DeclKind::Config) {
                let body = body(db, component);
                if let Some(attr) = body.find_attr(pcl_sema::BlockId::ROOT, name) {
                    res.extend(reference_at(
                        db,
                        Located::new(component, Site::AttrName(attr)),
                    ));
                }
            }
            if kind != DeclKind::Output || components.is_empty() {
                continue;
            }
            for &decl in decls.iter() {
                let body = body(db, decl);
                let bindings = bind(db, decl);
                for (i, expr) in body.exprs.iter().enumerate() {
                    let Expr::GetAttr { base, name: step } = expr else {
                        continue;
                    };
                    let root = match body.expr(*base) {
                        Expr::Index { base, .. } => *base,
                        _ => *base,
                    };
                    let reads_component = match body.expr(root) {
                        Expr::Name(n) => matches!(
                            bindings.resolution(body.str(*n)),
                            Some(Resolution::Decl(d)) if components.contains(d)
                        ),
                        _ => false,
                    };
                    if reads_component && body.str(*step) == name {
                        let at = Located::new(decl, Site::AttrStep(pcl_sema::ExprId(i as u32)));
                        res.extend(reference_at(db, at));
                    }
                }
            }
        }
        res
    }

    /// Whether what is at `offset` may be renamed to `new_name`: `Err` with the reason
    /// when `new_name` is not a PCL name, is `null` or `for`, or is already taken in the target's
    /// namespace (outputs have their own). `Ok` also when nothing renameable is there.
    pub fn check_rename(
        &self,
        path: &str,
        offset: TextSize,
        new_name: &str,
    ) -> Cancellable<Result<(), String>> {
        salsa::Cancelled::catch(|| {
            if !is_identifier(new_name) {
                return Err(format!("`{new_name}` is not a PCL name"));
            }
            if let Some(value) = ["null", "true", "false"].iter().find(|v| **v == new_name) {
                return Err(format!(
                    "`{value}` is a literal value: a reference to a declaration named so would \
                     read the value instead"
                ));
            }
            if new_name == "for" {
                return Err(
                    "`for` starts a `for` expression: a reference named so at the start of a \
                     list or object (`[for, ...]`) would read as one"
                        .to_owned(),
                );
            }
            if let Some(variable) = self.for_variable_at(path, offset) {
                return variable.rename_conflict(new_name).map_or(Ok(()), Err);
            }
            let db = self.db();
            let Some(target) = self.target_at(path, offset) else {
                return Ok(());
            };
            let scope = pcl_sema::program_scope(db, target.program(db));
            let names = if target.kind(db).is_referable() {
                &scope.names
            } else {
                &scope.outputs
            };
            match names.get(new_name) {
                Some(&taken) if taken != target => {
                    let file = taken.file(db).path(db);
                    let line = site_range(db, Located::new(taken, Site::Name))
                        .and_then(|range| {
                            let text = taken.file(db).text(db);
                            let before = text.get(..usize::from(range.start()))?;
                            Some(before.matches('\n').count() + 1)
                        })
                        .map(|line| format!(":{line}"))
                        .unwrap_or_default();
                    Err(format!(
                        "cannot rename to `{new_name}`: the {} `{new_name}` ({file}{line}) already has that name",
                        taken.kind(db).keyword()
                    ))
                }
                _ => Ok(()),
            }
        })
    }

    /// The name stack files set a config by (its logical name) when what is at `offset`
    /// is a config, or names one, that a rename changes there: one without a
    /// `__logicalName`, whose name is its logical name.
    pub fn renamed_config_key(&self, path: &str, offset: TextSize) -> Cancellable<Option<String>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            if self.for_variable_at(path, offset).is_some() {
                return None;
            }
            let target = self.target_at(path, offset)?;
            // A component's config (renamed from its caller) is no key of this project.
            if target.program(db) != self.file_and_program(path)?.1 {
                return None;
            }
            let name = target.name(db);
            (target.kind(db) == DeclKind::Config
                && pcl_sema::logical_name(db, target) == name.as_str())
            .then(|| name.to_string())
        })
    }

    /// The variable of a `for` named at `offset`: its declaration or a use.
    fn for_variable_at(&self, path: &str, offset: TextSize) -> Option<ForVariable> {
        let (file, _) = self.file_and_program(path)?;
        let tree = pcl_sema::parse(self.db(), file).syntax_node();
        for_variable_at(&tree, offset)
    }

    /// The declaration whose name is at `offset`, or that a name at `offset` refers to.
    fn target_at(&self, path: &str, offset: TextSize) -> Option<DeclId<'_>> {
        let db = self.db();
        let (decl, relative) = self.decl_at(path, offset)?;
        if let Some(name) = site_range(db, Located::new(decl, Site::Name))
            && (name.contains(offset) || name.end() == offset)
            && decl.kind(db) != DeclKind::Package
        {
            return Some(decl);
        }
        // An input of a component block: the component program's config it sets.
        if decl.kind(db) == DeclKind::Component {
            let body = body(db, decl);
            let input = (body.block(pcl_sema::BlockId::ROOT).attrs.iter()).find(|&&attr| {
                site_range(db, Located::new(decl, Site::AttrName(attr)))
                    .is_some_and(|range| range.contains_inclusive(offset))
            });
            if let Some(&attr) = input {
                return component_config(db, decl, body.attr_name(attr));
            }
        }
        let (id, _) = innermost_expr(db, decl, relative)??;
        referenced(db, decl, id)
    }

    /// Names that may be written at `offset`: the program's declarations, the builtins,
    /// and, inside a resource's body, its schema inputs not yet set.
    pub fn completions(&self, path: &str, offset: TextSize) -> Cancellable<Vec<CompletionItem>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((file, program)) = self.file_and_program(path) else {
                return Vec::new();
            };
            if let Some(members) = member_completions(db, file, program, offset) {
                return members;
            }
            let decl_here = self.decl_at_or_open_before(path, offset);
            if let Some((decl, _)) = decl_here
                && let Some(members) = range_members(db, file, decl, offset)
            {
                return members;
            }
            // `ignoreChanges = [|`: the inputs, whose names the list holds.
            if let Some((decl, _)) = decl_here
                && in_ignore_changes(db, file, offset)
            {
                let body_context = pcl_sema::FieldsContext::Body;
                let fields = pcl_sema::field_completions(db, decl, &body_context, &[]);
                return fields.into_iter().map(field_completion).collect();
            }
            if let Some((decl, _)) = decl_here
                && matches!(
                    decl.kind(db),
                    DeclKind::Resource | DeclKind::Read | DeclKind::Config
                )
                && let Some(label) = site_range(
                    db,
                    Located::new(decl, Site::Label(pcl_sema::BlockId::ROOT, 1)),
                )
                && in_label(file.text(db), label, offset)
            {
                let contents = quoted_contents(file.text(db), label);
                if decl.kind(db) == DeclKind::Config {
                    return config_types(contents);
                }
                return self.type_tokens(file, TokenSection::Resources, contents);
            }
            if let Some(template) = invoke_token_at(db, file, offset) {
                let contents = quoted_contents(file.text(db), template);
                return self.type_tokens(file, TokenSection::Functions, contents);
            }
            // A value being written: the enum's values, alone inside a plain string (where
            // names would land inside the quotes), else first among the names in scope.
            let mut enum_items = Vec::new();
            if let Some((decl, _)) = decl_here
                && let Some(site) = value_site(db, file, offset)
            {
                let values = pcl_sema::enum_value_completions(
                    db,
                    decl,
                    &site.context,
                    &site.path,
                    site.element,
                );
                if site.quoted.is_some() {
                    return enum_values(values, site.quoted);
                }
                enum_items = enum_values(values, None);
            }
            if let Some((decl, _)) = decl_here {
                match field_position(db, file, offset) {
                    // Where an object's key goes: that object's fields only.
                    FieldPosition::Object(context, keys) => {
                        let fields = pcl_sema::field_completions(db, decl, &context, &keys);
                        return fields.into_iter().map(field_completion).collect();
                    }
                    FieldPosition::Options => {
                        let options = pcl_sema::FieldsContext::Options;
                        let fields = pcl_sema::field_completions(db, decl, &options, &[]);
                        return (fields.into_iter())
                            .map(|field| {
                                let summary = pcl_sema::option_summary(&field.name);
                                CompletionItem {
                                    detail: format!("resource option: {}", field.ty),
                                    documentation: summary.map(str::to_owned),
                                    ..field_completion(field)
                                }
                            })
                            .collect();
                    }
                    // A line of a resource's or component's body: its inputs not yet
                    // set (the name being typed still counts as unset).
                    FieldPosition::Body
                        if matches!(
                            decl.kind(db),
                            DeclKind::Resource | DeclKind::Read | DeclKind::Component
                        ) =>
                    {
                        let body_context = pcl_sema::FieldsContext::Body;
                        let fields = pcl_sema::field_completions(db, decl, &body_context, &[]);
                        let descriptions = input_descriptions(db, decl);
                        let set = attributes_set(db, file, decl, offset);
                        let mut inputs: Vec<CompletionItem> = (fields.into_iter())
                            .filter(|field| !set.contains(&field.name.as_str()))
                            .map(|field| {
                                let documentation = descriptions.get(field.name.as_str()).cloned();
                                CompletionItem {
                                    documentation,
                                    ..field_completion(field)
                                }
                            })
                            .collect();
                        inputs.sort_by(|a, b| a.label.cmp(&b.label));
                        if body(db, decl)
                            .find_blocks(pcl_sema::BlockId::ROOT, "options")
                            .next()
                            .is_none()
                        {
                            inputs.push(keyword(
                                "options",
                                "resource options: provider, dependsOn, range, ...",
                            ));
                        }
                        return inputs;
                    }
                    // A config's or output's attributes not yet set.
                    FieldPosition::Body
                        if matches!(decl.kind(db), DeclKind::Config | DeclKind::Output) =>
                    {
                        let (known, what) = match decl.kind(db) {
                            DeclKind::Config => (pcl_sema::CONFIG_ATTRIBUTES, "config"),
                            _ => (pcl_sema::OUTPUT_ATTRIBUTES, "output"),
                        };
                        let set = attributes_set(db, file, decl, offset);
                        return (known.iter())
                            .filter(|name| !set.contains(name))
                            .map(|name| {
                                CompletionItem::plain(
                                    (*name).to_owned(),
                                    format!("attribute of a {what}"),
                                    CompletionKind::Field,
                                )
                            })
                            .collect();
                    }
                    FieldPosition::Body => (),
                    FieldPosition::Value => (),
                }
            }
            // A word at the start of a top-level line may begin a block.
            let at_top_level = decl_here.is_none() && {
                let text = file.text(db);
                let before = text.get(..usize::from(offset)).unwrap_or_default();
                let line = before.rsplit('\n').next().unwrap_or_default();
                line.chars().all(|c| c.is_alphanumeric() || c == '_')
            };
            // At the start of a top-level line: a block's keyword or a new name, no value.
            if at_top_level {
                let mut words: Vec<CompletionItem> = (TOP_LEVEL_KEYWORDS.iter())
                    .map(|(word, detail)| keyword(word, detail))
                    .collect();
                words.sort_by(|a, b| a.label.cmp(&b.label));
                return words;
            }
            // The name a block declares (`resource |`): a new name, nothing to offer.
            if decl_here.is_none() && declares_a_name(file.text(db), offset) {
                return Vec::new();
            }
            // Not the declaration being written: reading itself is a cycle.
            let current = decl_here.map(|(decl, _)| decl);
            let mut res: Vec<CompletionItem> = (program_decls(db, program).iter())
                .filter(|d| d.kind(db).is_referable() && d.kind(db) != DeclKind::Pulumi)
                .filter(|d| Some(**d) != current)
                .map(|&d| {
                    CompletionItem::plain(
                        d.name(db).to_string(),
                        format!(
                            "{} {}",
                            d.kind(db).keyword(),
                            pcl_types::readable(db, decl_ty(db, d))
                        ),
                        CompletionKind::Declaration,
                    )
                })
                .collect();
            res.extend(pcl_sema::BUILTIN_FUNCTIONS.iter().map(|f| {
                let signature = pcl_sema::builtin_signature(db, f).map(|(_, label)| label);
                let detail = signature.unwrap_or_else(|| "builtin function".to_owned());
                CompletionItem {
                    documentation: pcl_sema::builtin_summary(f).map(str::to_owned),
                    ..CompletionItem::plain(*f, detail, CompletionKind::Builtin)
                }
            }));
            res.sort_by(|a, b| a.label.cmp(&b.label));
            res.dedup_by(|a, b| a.label == b.label);
            enum_items.extend(res);
            enum_items
        })
    }
}

impl Analysis {
    /// Ranges an editor may fold: blocks, objects, tuples, for-expressions and heredocs
    /// that span lines.
    pub fn folding_ranges(&self, path: &str) -> Cancellable<Vec<TextRange>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((file, _)) = self.file_and_program(path) else {
                return Vec::new();
            };
            let text = file.text(db);
            let tree = pcl_sema::parse(db, file).syntax_node();
            tree.descendants()
                .filter(|n| {
                    use pcl_syntax::SyntaxKind::*;
                    matches!(
                        n.kind(),
                        BLOCK
                            | OBJECT_EXPR
                            | TUPLE_EXPR
                            | FOR_TUPLE_EXPR
                            | FOR_OBJECT_EXPR
                            | HEREDOC_EXPR
                    )
                })
                .map(|n| n.text_range())
                .filter(|r| {
                    text.get(usize::from(r.start())..usize::from(r.end()))
                        .is_some_and(|t| t.contains('\n'))
                })
                .collect()
        })
    }
}

/// A type hint after a declaration's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
}

impl Analysis {
    /// Declarations of every loaded program whose name contains `query` (case-insensitive).
    pub fn workspace_symbols(&self, query: &str) -> Cancellable<Vec<(FileSymbol, SmolStr)>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let query = query.to_lowercase();
            let mut res = Vec::new();
            for program in self.programs() {
                for &decl in program_decls(db, program).iter() {
                    if decl.kind(db) == DeclKind::Package
                        || !decl.name(db).to_lowercase().contains(&query)
                    {
                        continue;
                    }
                    let Some(target) = target_of(db, decl) else {
                        continue;
                    };
                    let symbol = FileSymbol {
                        name: decl.name(db).clone(),
                        kind: decl.kind(db),
                        full_range: target.full_range,
                        focus_range: target.focus_range,
                        detail: pcl_types::readable(db, shown_ty(db, decl)).clone(),
                    };
                    res.push((symbol, target.path));
                    if res.len() >= 256 {
                        return res;
                    }
                }
            }
            res
        })
    }

    /// The types of a file's locals (after their names) and of `range.value` (after a
    /// `range` option's value).
    pub fn inlay_hints(&self, path: &str) -> Cancellable<Vec<InlayHint>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((file, program)) = self.file_and_program(path) else {
                return Vec::new();
            };
            let mut hints = Vec::new();
            for &decl in program_decls(db, program)
                .iter()
                .filter(|d| d.file(db) == file)
            {
                if decl.kind(db) == DeclKind::Local
                    && let Some(name) = site_range(db, Located::new(decl, Site::Name))
                {
                    let label = format!(": {}", pcl_types::readable(db, decl_ty(db, decl)));
                    hints.push(InlayHint {
                        offset: name.end(),
                        label,
                    });
                }
                if let Some((range, value)) = pcl_sema::range_value_hint(db, decl)
                    && let Some(at) = site_range(db, Located::new(decl, Site::Expr(range)))
                {
                    let label = format!(" range.value: {}", pcl_types::readable(db, value));
                    hints.push(InlayHint {
                        offset: at.end(),
                        label,
                    });
                }
            }
            hints.sort_by_key(|h| h.offset);
            hints
        })
    }

    /// The syntax nodes around `offset`, innermost first: what "expand selection" steps
    /// through.
    pub fn selection_ranges(&self, path: &str, offset: TextSize) -> Cancellable<Vec<TextRange>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some((file, _)) = self.file_and_program(path) else {
                return Vec::new();
            };
            let tree = pcl_sema::parse(db, file).syntax_node();
            let offset = offset.min(tree.text_range().end());
            let token = match tree.token_at_offset(offset) {
                pcl_syntax::TokenAtOffset::Single(t) => Some(t),
                pcl_syntax::TokenAtOffset::Between(_, right) => Some(right),
                pcl_syntax::TokenAtOffset::None => None,
            };
            let Some(token) = token else {
                return Vec::new();
            };
            let mut res = vec![token.text_range()];
            for node in token.parent_ancestors() {
                if res.last() != Some(&node.text_range()) {
                    res.push(node.text_range());
                }
            }
            res
        })
    }
}

/// After `name.attr.` the attributes of the value's type, when the text before the dot
/// is a chain of names that resolves: `None` when the cursor does not follow a dot.
fn member_completions(
    db: &RootDatabase,
    file: pcl_sema::File,
    program: pcl_sema::Program,
    offset: TextSize,
) -> Option<Vec<CompletionItem>> {
    let text = file.text(db);
    let before = text.get(..usize::from(offset))?;
    let (root, steps) = member_chain(before)?;
    let root_ty = (chain_root_ty(db, program, root))
        .or_else(|| for_variable_ty(db, program, before, root))?;
    // A resource's attributes carry their schema descriptions.
    let descriptions = match (
        steps.is_empty(),
        pcl_sema::program_scope(db, program).names.get(root),
    ) {
        (true, Some(&decl)) => property_descriptions(db, decl, "outputs"),
        _ => rustc_hash::FxHashMap::default(),
    };
    let ty = traverse_steps(db, root_ty, steps);
    let mut members: Vec<CompletionItem> = Vec::new();
    for (name, ty) in object_members(db, ty) {
        if members.iter().all(|m| m.label != *name) {
            members.push(CompletionItem {
                documentation: descriptions.get(&*name).cloned(),
                ..CompletionItem::plain(
                    name.to_string(),
                    pcl_types::readable(db, ty).clone(),
                    CompletionKind::Field,
                )
            });
        }
    }
    Some(members)
}

/// After `range.` in a declaration with a `range` option: what the variable has.
fn range_members(
    db: &RootDatabase,
    file: pcl_sema::File,
    decl: DeclId<'_>,
    offset: TextSize,
) -> Option<Vec<CompletionItem>> {
    let before = file.text(db).get(..usize::from(offset))?;
    let (root, steps) = member_chain(before)?;
    let body = body(db, decl);
    let ranged = (body.find_blocks(pcl_sema::BlockId::ROOT, "options"))
        .any(|options| body.find_attr(options, "range").is_some());
    (root == "range" && steps.is_empty() && ranged).then(|| {
        [
            ("value", "the element ranged over (a number's: its index)"),
            ("key", "the element's index in a list, or its key in a map"),
        ]
        .into_iter()
        .map(|(name, detail)| CompletionItem::plain(name, detail, CompletionKind::Field))
        .collect()
    })
}

/// Whether `offset` is in the list of an `ignoreChanges` option (open or closed).
fn in_ignore_changes(db: &RootDatabase, file: pcl_sema::File, offset: TextSize) -> bool {
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    let tree = pcl_sema::parse(db, file).syntax_node();
    let offset = offset.min(tree.text_range().end());
    let token = match tree.token_at_offset(offset) {
        pcl_syntax::TokenAtOffset::Single(t) | pcl_syntax::TokenAtOffset::Between(t, _) => t,
        pcl_syntax::TokenAtOffset::None => return false,
    };
    let mut in_list = false;
    for node in token.parent_ancestors() {
        match node.kind() {
            TUPLE_EXPR => in_list = node.text_range().start() < offset,
            ATTRIBUTE => {
                let name = ast::Attribute::cast(node).and_then(|a| a.name());
                return in_list && name.is_some_and(|n| n.text() == "ignoreChanges");
            }
            BLOCK => return false,
            _ => (),
        }
    }
    false
}

/// Whether `offset` is where a block's name goes, after its keyword alone on a top-level
/// line (`resource |`, `config |`).
fn declares_a_name(text: &str, offset: TextSize) -> bool {
    let before = text.get(..usize::from(offset)).unwrap_or_default();
    let line = before.rsplit('\n').next().unwrap_or_default();
    let mut words = line.split_whitespace();
    let keyword = words.next().unwrap_or_default();
    let naming = ["resource", "config", "output", "component"].contains(&keyword);
    let typed = words.next();
    naming
        && words.next().is_none()
        && (typed.is_none() || !line.ends_with(' '))
        && line.starts_with(keyword)
}

/// `ty` traversed by `steps`.
fn traverse_steps<'db>(
    db: &'db RootDatabase,
    mut ty: pcl_types::Ty<'db>,
    steps: Vec<ChainStep<'_>>,
) -> pcl_types::Ty<'db> {
    for step in steps {
        let key = match step {
            ChainStep::Attr(name) => pcl_types::TraverseKey::Attr(name.into()),
            ChainStep::Index => pcl_types::TraverseKey::Unknown(pcl_types::Ty::int(db)),
        };
        ty = pcl_types::traverse(db, ty, key).ty;
    }
    ty
}

/// The type of the declaration `root` names in `program`.
fn chain_root_ty<'db>(
    db: &'db RootDatabase,
    program: pcl_sema::Program,
    root: &str,
) -> Option<pcl_types::Ty<'db>> {
    let decl = *pcl_sema::program_scope(db, program).names.get(root)?;
    Some(decl_ty(db, decl))
}

/// The type of `name` when it is the value variable of the innermost `for` written before
/// the cursor (`[for p in pets : p.`, `{for k, v in tags : k => v.`): an element of the
/// collection, when that is a path from a declaration. From the text, as completion runs
/// on text being typed.
fn for_variable_ty<'db>(
    db: &'db RootDatabase,
    program: pcl_sema::Program,
    before: &str,
    name: &str,
) -> Option<pcl_types::Ty<'db>> {
    let single = format!("for {name} in ");
    let second = format!(", {name} in ");
    let (at, written) = [single.as_str(), second.as_str()]
        .into_iter()
        .filter_map(|pattern| Some((before.rfind(pattern)?, pattern)))
        .max_by_key(|(at, _)| *at)?;
    let rest = &before[at + written.len()..];
    let collection = rest.split(':').next()?.trim();
    let chain = format!("{collection}.");
    let (root, steps) = member_chain(&chain)?;
    let collection = traverse_steps(db, chain_root_ty(db, program, root)?, steps);
    let collection_ty = pcl_types::resolve_outputs(db, collection);
    match collection_ty.kind(db) {
        pcl_types::TyKind::List(element)
        | pcl_types::TyKind::Set(element)
        | pcl_types::TyKind::Map(element) => Some(*element),
        // A literal collection (`l = [{ a = 1 }]`): its elements' types, unified.
        pcl_types::TyKind::Tuple(elements) => {
            Some(pcl_types::unify_types(db, elements.iter().copied()).0)
        }
        pcl_types::TyKind::Object(properties) => {
            Some(pcl_types::unify_types(db, properties.iter().map(|(_, ty)| *ty)).0)
        }
        _ => None,
    }
}

/// One step of a traversal written before a `.` being completed.
enum ChainStep<'a> {
    Attr(&'a str),
    /// `[...]`, whatever the key (`[0]`, `[*]`, `["a"]`).
    Index,
}

/// The traversal that ends just before a cursor after a `.`: `bucket.tags.` is `bucket`
/// and the step `tags`, `pets[0].` is `pets` and an index. `None` when the text before the
/// cursor is not a name followed by steps and a `.` (and a partly typed name).
fn member_chain(before: &str) -> Option<(&str, Vec<ChainStep<'_>>)> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // Back over the partly typed name and the dot before it.
    let typed = before.trim_end_matches(is_name);
    let mut rest = typed.strip_suffix('.')?;
    let mut steps = Vec::new();
    loop {
        if let Some(open) = rest.strip_suffix(']') {
            // Back to the matching `[` (keys are literals, `*` or names: no nesting).
            let bracket = open.rfind('[')?;
            if open[bracket + 1..].contains(['[', ']', '\n']) {
                return None;
            }
            steps.push(ChainStep::Index);
            rest = &open[..bracket];
            continue;
        }
        let name_start = rest.trim_end_matches(is_name).len();
        let name = &rest[name_start..];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            return None;
        }
        rest = &rest[..name_start];
        match rest.strip_suffix('.') {
            Some(earlier) => {
                steps.push(ChainStep::Attr(name));
                rest = earlier;
            }
            None => {
                steps.reverse();
                return Some((name, steps));
            }
        }
    }
}

/// The attributes a value of type `ty` has: an object's properties, through outputs,
/// promises and optional values (`none` in a union), and a list's elements' (which a
/// splat reads).
fn object_members<'db>(
    db: &'db RootDatabase,
    ty: pcl_types::Ty<'db>,
) -> Vec<(pcl_types::Name, pcl_types::Ty<'db>)> {
    use pcl_types::TyKind;
    let resolved = pcl_types::resolve_outputs(db, ty);
    match resolved.kind(db) {
        TyKind::Union(members) => (members.iter())
            .flat_map(|&member| object_members(db, member))
            .collect(),
        TyKind::List(element) | TyKind::Set(element) => object_members(db, *element),
        _ => pcl_types::object_properties(db, resolved)
            .unwrap_or_default()
            .to_vec(),
    }
}

/// The signature of the call around a position, and which parameter the cursor is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    pub label: String,
    pub parameters: Vec<String>,
    pub active_parameter: usize,
}

impl Analysis {
    /// The signature of the innermost builtin, `invoke` or `call` call around `offset`.
    pub fn signature_help(
        &self,
        path: &str,
        offset: TextSize,
    ) -> Cancellable<Option<SignatureHelp>> {
        salsa::Cancelled::catch(|| {
            self.signature_help_at(path, offset).or_else(|| {
                // A call not closed yet ends at its last argument or `,`: the blanks typed
                // after it are still its (`element(names, |`).
                let text = self.file_and_program(path)?.0.text(self.db());
                let before = text.get(..usize::from(offset))?;
                let trimmed = before.trim_end_matches([' ', '\t', '\r', '\n']);
                let after_comma = trimmed.ends_with([',', '(']);
                let trimmed = TextSize::try_from(trimmed.len()).ok()?;
                (after_comma && trimmed < offset)
                    .then(|| self.signature_help_at(path, trimmed))
                    .flatten()
            })
        })
    }

    /// The signature of the innermost builtin call around `offset`.
    fn signature_help_at(&self, path: &str, offset: TextSize) -> Option<SignatureHelp> {
        {
            let db = self.db();
            let (decl, relative) = self.decl_at(path, offset)?;
            let with_map = body_with_source_map(db, decl);
            let (body, map) = (&with_map.body, &with_map.source_map);
            let (_, call) = (body.exprs.iter().enumerate())
                .filter(|(i, e)| {
                    matches!(e, Expr::Call(_))
                        && map
                            .exprs
                            .get(*i)
                            .is_some_and(|r| r.start() < relative && relative <= r.end())
                })
                .min_by_key(|(i, _)| map.exprs[*i].len())?;
            let Expr::Call(call) = call else {
                return None;
            };
            let (name, args) = (&call.name, body.list(call.args));
            let (parameters, label) = pcl_sema::builtin_signature(db, name)?;
            let active = args
                .iter()
                .filter(|a| {
                    map.exprs
                        .get(a.0 as usize)
                        .is_some_and(|r| r.end() < relative)
                })
                .count();
            Some(SignatureHelp {
                label,
                parameters,
                active_parameter: active,
            })
        }
    }
}

/// What a token is, for syntax highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenClass {
    Keyword,
    String,
    Number,
    Comment,
    Operator,
    Variable,
    Property,
    Function,
    Type,
}

impl TokenClass {
    /// Every class, in the order their indexes are announced to editors.
    pub const ALL: [TokenClass; 9] = [
        TokenClass::Keyword,
        TokenClass::String,
        TokenClass::Number,
        TokenClass::Comment,
        TokenClass::Operator,
        TokenClass::Variable,
        TokenClass::Property,
        TokenClass::Function,
        TokenClass::Type,
    ];
}

impl Analysis {
    /// The highlighted tokens of a file, in order: (range, class).
    pub fn highlight(&self, path: &str) -> Cancellable<Vec<(TextRange, TokenClass)>> {
        salsa::Cancelled::catch(|| {
            use pcl_syntax::SyntaxKind::*;
            let db = self.db();
            let Some((file, _)) = self.file_and_program(path) else {
                return Vec::new();
            };
            let tree = pcl_sema::parse(db, file).syntax_node();
            let mut res = Vec::new();
            for token in tree
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
            {
                let parent = token.parent().map(|p| p.kind());
                let class = match token.kind() {
                    COMMENT => TokenClass::Comment,
                    NUMBER => TokenClass::Number,
                    TEMPLATE_CHUNK | OPEN_QUOTE | CLOSE_QUOTE | HEREDOC_START | HEREDOC_END => {
                        let label = (token.parent_ancestors().take(2))
                            .find(|node| node.kind() == BLOCK_LABEL);
                        match label {
                            Some(label) => label_class(&label),
                            None => TokenClass::String,
                        }
                    }
                    TRUE_KW | FALSE_KW | NULL_KW | FOR_KW | IN_KW | IF_KW | ELSE_KW | ENDIF_KW
                    | ENDFOR_KW => TokenClass::Keyword,
                    IDENT => match parent {
                        Some(BLOCK) => TokenClass::Keyword,
                        Some(BLOCK_LABEL) => match token.parent() {
                            Some(label) => label_class(&label),
                            None => TokenClass::Type,
                        },
                        // A top-level attribute declares a local.
                        Some(ATTRIBUTE)
                            if token
                                .parent()
                                .and_then(|attribute| attribute.parent())
                                .and_then(|body| body.parent())
                                .is_some_and(|top| top.kind() == SOURCE_FILE) =>
                        {
                            TokenClass::Variable
                        }
                        Some(ATTRIBUTE) => TokenClass::Property,
                        Some(CALL_EXPR) => TokenClass::Function,
                        Some(VARIABLE_EXPR)
                            if token
                                .parent()
                                .and_then(|p| p.parent())
                                .is_some_and(|g| g.kind() == OBJECT_KEY) =>
                        {
                            TokenClass::Property
                        }
                        Some(VARIABLE_EXPR) => TokenClass::Variable,
                        Some(GET_ATTR_EXPR | ATTR_STEP) => TokenClass::Property,
                        _ => continue,
                    },
                    PLUS | MINUS | STAR | SLASH | PERCENT | EQ2 | NEQ | LT | GT | LTEQ | GTEQ
                    | AMP2 | PIPE2 | BANG | QUESTION | FAT_ARROW | DOT3 => TokenClass::Operator,
                    _ => continue,
                };
                res.push((token.text_range(), class));
            }
            res
        })
    }
}

/// `component.name` at expression `id`: the `output` block `name` of the program the
/// component instantiates.
fn component_output<'db>(
    db: &'db RootDatabase,
    decl: DeclId<'db>,
    id: pcl_sema::ExprId,
) -> Option<DeclId<'db>> {
    let declared = body(db, decl);
    let Expr::GetAttr { base, name } = declared.expr(id) else {
        return None;
    };
    let component = referenced(db, decl, *base)?;
    if component.kind(db) != DeclKind::Component {
        return None;
    }
    let program = component_program(db, component)?;
    let step = declared.str(*name);
    (pcl_sema::program_scope(db, program)
        .outputs
        .values()
        .copied())
    .find(|&output| pcl_sema::logical_name(db, output) == step)
}

/// Definitions found in the syntax: an input's name in a component's body (the `config`
/// block of the component's program), a resource's type token and the token of an
/// `invoke` (where the schema file defines it).
fn syntax_definition<'db>(
    db: &'db RootDatabase,
    file: pcl_sema::File,
    decl: DeclId<'db>,
    offset: TextSize,
) -> Option<NavigationTarget> {
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    if matches!(decl.kind(db), DeclKind::Resource | DeclKind::Read) {
        let label = site_range(
            db,
            Located::new(decl, Site::Label(pcl_sema::BlockId::ROOT, 1)),
        )?;
        if label.contains(offset) {
            let token = body(db, decl).label(pcl_sema::BlockId::ROOT, 1)?;
            return schema_definition(db, token);
        }
    }
    let tree = pcl_sema::parse(db, file).syntax_node();
    let token = match tree.token_at_offset(offset.min(tree.text_range().end())) {
        pcl_syntax::TokenAtOffset::Single(t) => t,
        pcl_syntax::TokenAtOffset::Between(left, right) => {
            if right.kind() == IDENT {
                right
            } else {
                left
            }
        }
        pcl_syntax::TokenAtOffset::None => return None,
    };
    let parent = token.parent()?;
    if parent.kind() == ATTRIBUTE && token.kind() == IDENT && decl.kind(db) == DeclKind::Component {
        let block = parent.parent()?.parent()?;
        let is_declaration_body =
            block.kind() == BLOCK && block.parent()?.parent()?.kind() == SOURCE_FILE;
        if !is_declaration_body {
            return None;
        }
        return target_of(db, component_config(db, decl, token.text())?);
    }
    if invoke_token_at(db, file, offset).is_some() {
        let template = parent.ancestors().find(|n| n.kind() == TEMPLATE_EXPR)?;
        let ast::Expr::Template(literal) = ast::Expr::cast(template)? else {
            return None;
        };
        return schema_definition(db, &literal.literal_value()?);
    }
    None
}

/// Where the schema file of `token`'s package defines it: the file and the range of the
/// token's entry.
fn schema_definition(db: &RootDatabase, token: &str) -> Option<NavigationTarget> {
    let source = pcl_sema::token_package(token).and_then(|p| pcl_schema::package_named(db, p))?;
    let (kind, canonical) = pcl_schema::resolve_token(db, source, token)?;
    let index = pcl_schema::package_index(db, source).as_ref().ok()?;
    let section = (index.sections().into_iter()).find(|(k, _)| *k == kind)?.1;
    let (_, span) = section.exact(&canonical)?;
    let start = TextSize::from(u32::try_from(span.start).ok()?);
    let end = TextSize::from(u32::try_from(span.end).ok()?);
    // Land on the entry's key (the quoted token before its value), else its value.
    let quoted = format!("\"{canonical}\"");
    let text = source.text(db);
    let key = (text.get(..span.start))
        .and_then(|before| before.rfind(&quoted))
        .and_then(|at| {
            let at = TextSize::from(u32::try_from(at).ok()?);
            Some(TextRange::at(
                at,
                TextSize::from(u32::try_from(quoted.len()).ok()?),
            ))
        })
        .unwrap_or(TextRange::empty(start));
    Some(NavigationTarget {
        path: source.file(db).clone(),
        full_range: TextRange::new(start, end.max(start)),
        focus_range: key,
    })
}

/// On a component's source label: the first file of the program it instantiates.
fn component_source_at<'db>(
    db: &'db RootDatabase,
    decl: DeclId<'db>,
    offset: TextSize,
) -> Option<NavigationTarget> {
    if decl.kind(db) != DeclKind::Component {
        return None;
    }
    let label = site_range(
        db,
        Located::new(decl, Site::Label(pcl_sema::BlockId::ROOT, 1)),
    )?;
    if !label.contains(offset) {
        return None;
    }
    let source = body(db, decl).label(pcl_sema::BlockId::ROOT, 1)?;
    let dir = pcl_sema::join_dir(decl.program(db).dir(db), source);
    let program = pcl_sema::program_at(db, &dir)?;
    let file = *program.files(db).first()?;
    Some(NavigationTarget {
        path: file.path(db).clone(),
        full_range: TextRange::empty(TextSize::from(0)),
        focus_range: TextRange::empty(TextSize::from(0)),
    })
}

/// The names set by `name = …` lines directly in the body of the block `text` starts
/// with (up to the end of that block), read line by line so that a syntax error does not
/// hide them: brackets outside strings and comments give the depth.
fn body_attribute_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    for line in text.split_inclusive('\n') {
        if depth == 1 {
            let trimmed = line.trim_start();
            let name_len = trimmed
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(trimmed.len());
            let (name, rest) = trimmed.split_at(name_len);
            let rest = rest.trim_start();
            if !name.is_empty() && rest.starts_with('=') && !rest.starts_with("==") {
                names.push(name);
            }
        }
        let mut chars = line.chars().peekable();
        let mut in_string = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_string => {
                    chars.next();
                }
                '"' => in_string = !in_string,
                _ if in_string => (),
                '#' => break,
                '/' if chars.peek() == Some(&'/') => break,
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return names;
                    }
                }
                _ => (),
            }
        }
    }
    names
}

/// The identifier the offset is in or at the end of (empty when none).
fn word_at(text: &str, offset: TextSize) -> &str {
    let offset = usize::from(offset).min(text.len());
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let (Some(before), Some(after)) = (text.get(..offset), text.get(offset..)) else {
        return "";
    };
    let start = (before.char_indices().rev())
        .find(|(_, c)| !is_word(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = after
        .find(|c: char| !is_word(c))
        .map_or(text.len(), |i| offset + i);
    text.get(start..end).unwrap_or("")
}

/// The token string of `invoke("…", …)` that `offset` is in, with its quotes.
fn invoke_token_at(db: &RootDatabase, file: pcl_sema::File, offset: TextSize) -> Option<TextRange> {
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    let tree = pcl_sema::parse(db, file).syntax_node();
    let offset = offset.min(tree.text_range().end());
    let token = match tree.token_at_offset(offset) {
        pcl_syntax::TokenAtOffset::Single(t) | pcl_syntax::TokenAtOffset::Between(t, _) => t,
        pcl_syntax::TokenAtOffset::None => return None,
    };
    let template = token
        .parent_ancestors()
        .find(|n| n.kind() == TEMPLATE_EXPR)?;
    // Strictly inside the quotes.
    let range = template.text_range();
    if !(range.start() < offset && (offset < range.end() || token.kind() != CLOSE_QUOTE)) {
        return None;
    }
    let call = (template.parent())
        .filter(|n| n.kind() == ARG_LIST)
        .and_then(|list| list.parent())
        .and_then(ast::CallExpr::cast)?;
    let first = call.arg_list().and_then(|list| list.args().next());
    (call.name() == "invoke" && first.is_some_and(|arg| arg.syntax() == &template)).then_some(range)
}

/// Which tokens of the loaded schemas to offer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokenSection {
    Resources,
    Functions,
}

impl Analysis {
    /// Completions of a resource type or function token whose quoted text is `contents`:
    /// the loaded packages' tokens, and before a package is chosen (no `:` typed yet) each
    /// package on the search path as `name:`, which loads when typed.
    fn type_tokens(
        &self,
        file: pcl_sema::File,
        section: TokenSection,
        contents: Option<TextRange>,
    ) -> Vec<CompletionItem> {
        let db = self.db();
        let mut items = schema_tokens(db, section, contents);
        let typed =
            contents.and_then(|range| file.text(db).get(std::ops::Range::<usize>::from(range)));
        if typed.is_none_or(|typed| !typed.contains(':')) {
            let loaded: rustc_hash::FxHashSet<&str> = (items.iter())
                .filter_map(|item| Some(item.label.split_once(':')?.0))
                .collect();
            let offered: Vec<CompletionItem> = (self.available_packages.names().iter())
                .filter(|package| !loaded.contains(package.as_str()))
                .map(|package| {
                    CompletionItem::plain(
                        format!("{package}:"),
                        "package on the schema path",
                        match section {
                            TokenSection::Resources => CompletionKind::ResourceType,
                            TokenSection::Functions => CompletionKind::FunctionToken,
                        },
                    )
                    .replacing(contents)
                })
                .collect();
            items.extend(offered);
        }
        items
    }
}

/// Whether `offset` is in the label at `range`: inside it, or at its end while its closing
/// quote is not typed yet (`resource pet "rand|`).
fn in_label(text: &str, range: TextRange, offset: TextSize) -> bool {
    let unclosed = || {
        let written = text
            .get(std::ops::Range::<usize>::from(range))
            .unwrap_or_default();
        written.starts_with('"') && (written.len() == 1 || !written.ends_with('"'))
    };
    range.contains(offset) || (offset == range.end() && unclosed())
}

/// What lies between the quotes of the string literal at `range` (up to its end when the
/// closing quote is not typed yet).
fn quoted_contents(text: &str, range: TextRange) -> Option<TextRange> {
    let written = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let open = u32::from(written.starts_with('"'));
    let close = u32::from(written.len() > 1 && written.ends_with('"'));
    let start = range.start() + TextSize::from(open);
    let end = range.end() - TextSize::from(close);
    (start <= end).then(|| TextRange::new(start, end))
}

/// The tokens of every loaded package's resources or functions; each replaces `contents`
/// (the quoted text being completed) when given.
fn schema_tokens(
    db: &RootDatabase,
    section: TokenSection,
    contents: Option<TextRange>,
) -> Vec<CompletionItem> {
    let Some(loaded) = pcl_schema::LoadedPackages::try_get(db) else {
        return Vec::new();
    };
    let mut sources: Vec<pcl_schema::PackageSource> =
        loaded.packages(db).values().copied().collect();
    sources.sort_by_key(|s| s.file(db).clone());
    sources.dedup();
    let mut res = Vec::new();
    for source in sources {
        if let Ok(listing) = pcl_schema::package_listing(db, source) {
            let (tokens, what, kind) = match section {
                TokenSection::Resources => {
                    (&listing.resources, "resource", CompletionKind::ResourceType)
                }
                TokenSection::Functions => (
                    &listing.functions,
                    "function",
                    CompletionKind::FunctionToken,
                ),
            };
            res.extend(tokens.iter().map(|token| {
                CompletionItem::plain(
                    token.to_string(),
                    format!("{what} of {}", listing.package),
                    kind,
                )
                .replacing(contents)
            }));
        }
    }
    res
}

/// The completion of a field: its type, and whether it must be given.
fn field_completion(field: pcl_sema::Field) -> CompletionItem {
    let required = if field.required {
        "required"
    } else {
        "optional"
    };
    CompletionItem {
        detail: format!("input ({required}): {}", field.ty),
        label: field.name,
        kind: CompletionKind::Field,
        required: field.required,
        documentation: None,
        replace: None,
    }
}

/// The schema's descriptions of a resource's inputs, by name (empty for other
/// declarations or without a schema).
fn input_descriptions(
    db: &RootDatabase,
    decl: DeclId<'_>,
) -> rustc_hash::FxHashMap<SmolStr, String> {
    property_descriptions(db, decl, "inputs")
}

/// The schema's descriptions of the properties in a resource's section `title`
/// (`inputs`, `outputs`), by name (empty for other declarations or without a schema).
fn property_descriptions(
    db: &RootDatabase,
    decl: DeclId<'_>,
    title: &str,
) -> rustc_hash::FxHashMap<SmolStr, String> {
    let mut res = rustc_hash::FxHashMap::default();
    if !matches!(decl.kind(db), DeclKind::Resource | DeclKind::Read) {
        return res;
    }
    let Some(label) = body(db, decl).label(pcl_sema::BlockId::ROOT, 1) else {
        return res;
    };
    let Some(described) = schema_description(db, label) else {
        return res;
    };
    for section in described.sections.into_iter().filter(|s| s.title == title) {
        for property in section.properties {
            if let Some(description) = property.description {
                res.insert(property.name, render_description(&description));
            }
        }
    }
    res
}

/// What goes at a completion's offset, for field names.
enum FieldPosition {
    /// A key of an object literal whose expected type comes from `context` and then the
    /// keys of the objects around it (outermost first).
    Object(pcl_sema::FieldsContext, Vec<SmolStr>),
    /// A line of a declaration's body: its inputs go there, beside names in scope.
    Body,
    /// A line of an `options` block: the option names.
    Options,
    /// Inside an expression: names in scope only.
    Value,
}

fn field_position(db: &RootDatabase, file: pcl_sema::File, offset: TextSize) -> FieldPosition {
    use pcl_sema::FieldsContext;
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    let tree = pcl_sema::parse(db, file).syntax_node();
    let offset = offset.min(tree.text_range().end());
    let token = match tree.token_at_offset(offset) {
        pcl_syntax::TokenAtOffset::Single(t) | pcl_syntax::TokenAtOffset::Between(t, _) => t,
        pcl_syntax::TokenAtOffset::None => return FieldPosition::Body,
    };
    let contains = |node: &pcl_syntax::SyntaxNode| node.text_range().contains_inclusive(offset);
    // The keys of the objects around the offset, innermost first; `None` until the offset
    // is known to be at a key of an object literal.
    let mut keys: Option<Vec<SmolStr>> = None;
    let mut ancestors = token.parent_ancestors();
    while let Some(node) = ancestors.next() {
        match node.kind() {
            // `{ name = }` with no value yet: the item ends at its `=`.
            OBJECT_EXPR if keys.is_none() && line_ends_with_equals(file.text(db), offset) => {
                return FieldPosition::Value;
            }
            OBJECT_EXPR if keys.is_none() => keys = Some(Vec::new()),
            OBJECT_ITEM => {
                let Some(item) = ast::ObjectItem::cast(node.clone()) else {
                    continue;
                };
                // Anywhere but on the key (also after an `=` with no value yet) is the value.
                let in_value = !item.key().is_some_and(|k| contains(k.syntax()));
                match (&mut keys, in_value) {
                    // In an item's value, not in an object of its own: an expression.
                    (None, true) => return FieldPosition::Value,
                    (Some(keys), true) => match item.key().and_then(|k| k.literal_name()) {
                        Some(key) => keys.push(SmolStr::new(key)),
                        None => return FieldPosition::Value,
                    },
                    // On the key: the key of the object around it.
                    (_, false) => (),
                }
            }
            CALL_EXPR => {
                let Some(keys) = keys else {
                    return FieldPosition::Value;
                };
                let Some(call) = ast::CallExpr::cast(node.clone()) else {
                    return FieldPosition::Value;
                };
                let args: Vec<ast::Expr> = call
                    .arg_list()
                    .map(|l| l.args().collect())
                    .unwrap_or_default();
                let token = match args.first() {
                    Some(ast::Expr::Template(template)) => template.literal_value(),
                    _ => None,
                };
                let in_arguments = args.get(1).is_some_and(|arg| contains(arg.syntax()));
                return match token {
                    Some(token) if call.name() == "invoke" && in_arguments => {
                        FieldPosition::Object(
                            FieldsContext::InvokeArguments(token.into()),
                            reversed(keys),
                        )
                    }
                    _ => FieldPosition::Value,
                };
            }
            ATTRIBUTE => {
                let Some(attribute) = ast::Attribute::cast(node.clone()) else {
                    continue;
                };
                let Some(keys) = keys else {
                    // On the name: a line of the body around it (the declaration's, or
                    // its `options`).
                    if attribute.value().is_some_and(|v| contains(v.syntax())) {
                        return FieldPosition::Value;
                    }
                    continue;
                };
                let Some(name) = attribute.name().map(|n| SmolStr::new(n.text())) else {
                    return FieldPosition::Value;
                };
                let context = attribute_context(ancestors, name);
                return FieldPosition::Object(context, reversed(keys));
            }
            BLOCK if keys.is_none() => {
                // `name = ` with no value yet, where the attribute ends at its `=`.
                if line_ends_with_equals(file.text(db), offset) {
                    return FieldPosition::Value;
                }
                let in_options = (ast::Block::cast(node).and_then(|block| block.type_name()))
                    .is_some_and(|type_name| type_name.text() == "options");
                return if in_options {
                    FieldPosition::Options
                } else {
                    FieldPosition::Body
                };
            }
            BLOCK => break,
            _ => (),
        }
    }
    match keys {
        Some(_) => FieldPosition::Value,
        None => FieldPosition::Body,
    }
}

/// Where a value is being written that an enum's values could complete: inside a plain
/// string or right after an `=` (or in a list there), as the value of an attribute, an
/// option or an object's field.
struct ValueSite {
    /// The attribute or option the value belongs to, and the keys of the objects between
    /// (outermost first): as for [`FieldPosition::Object`], with the value's own key last.
    context: pcl_sema::FieldsContext,
    path: Vec<SmolStr>,
    /// The value is an element of a list written there.
    element: bool,
    /// The contents of the string's quotes, when the value is a string being typed.
    quoted: Option<TextRange>,
}

fn value_site(db: &RootDatabase, file: pcl_sema::File, offset: TextSize) -> Option<ValueSite> {
    use pcl_syntax::SyntaxKind::*;
    use pcl_syntax::ast::{self, AstNode};
    let tree = pcl_sema::parse(db, file).syntax_node();
    let offset = offset.min(tree.text_range().end());
    let mut token = match tree.token_at_offset(offset) {
        pcl_syntax::TokenAtOffset::Single(t) | pcl_syntax::TokenAtOffset::Between(t, _) => t,
        pcl_syntax::TokenAtOffset::None => return None,
    };
    // Spaces before the offset, on its line.
    while token.kind() == WHITESPACE && token.text_range().start() < offset {
        token = token.prev_token()?;
    }
    let (mut value_of, quoted) = match token.kind() {
        EQ => (token.parent()?, None),
        OPEN_QUOTE | TEMPLATE_CHUNK | CLOSE_QUOTE => {
            let template = token.parent().filter(|n| n.kind() == TEMPLATE_EXPR)?;
            // A plain string, the offset strictly inside its quotes.
            let plain = template
                .children_with_tokens()
                .all(|child| matches!(child.kind(), OPEN_QUOTE | TEMPLATE_CHUNK | CLOSE_QUOTE));
            let range = template.text_range();
            let inside =
                range.start() < offset && (offset < range.end() || token.kind() != CLOSE_QUOTE);
            if !plain || !inside {
                return None;
            }
            let contents = quoted_contents(file.text(db), range)?;
            (template.parent()?, Some(contents))
        }
        L_BRACK | COMMA => (token.parent().filter(|n| n.kind() == TUPLE_EXPR)?, None),
        _ => return None,
    };
    let element = value_of.kind() == TUPLE_EXPR;
    if element {
        value_of = value_of.parent()?;
    }
    match value_of.kind() {
        ATTRIBUTE => {
            let attribute = ast::Attribute::cast(value_of.clone())?;
            let name = SmolStr::new(attribute.name()?.text());
            let context = attribute_context(value_of.ancestors(), name);
            Some(ValueSite {
                context,
                path: Vec::new(),
                element,
                quoted,
            })
        }
        OBJECT_ITEM => {
            let key = ast::ObjectItem::cast(value_of)?.key()?;
            let name = SmolStr::new(key.literal_name()?);
            let FieldPosition::Object(context, mut path) =
                field_position(db, file, key.syntax().text_range().start())
            else {
                return None;
            };
            path.push(name);
            Some(ValueSite {
                context,
                path,
                element,
                quoted,
            })
        }
        _ => None,
    }
}

/// Completions of an enum's values: the text inside the quotes when `quoted` (strings
/// only), else the values as written in PCL.
fn enum_values(
    values: Vec<(pcl_types::ConstValue, SmolStr)>,
    quoted: Option<TextRange>,
) -> Vec<CompletionItem> {
    (values.into_iter())
        .filter_map(|(value, token)| {
            let label = match (&value, quoted) {
                (pcl_types::ConstValue::String(text), Some(_)) => text.to_string(),
                (_, Some(_)) => return None,
                (_, None) => value.pretty(),
            };
            let item = CompletionItem::plain(
                label,
                format!("value of {token}"),
                CompletionKind::EnumValue,
            );
            Some(item.replacing(quoted))
        })
        .collect()
}

/// What an attribute `name` sets, from the nodes around it (`ancestors`, innermost first):
/// an option in an `options` block, else an attribute of the declaration's body.
fn attribute_context(
    mut ancestors: impl Iterator<Item = pcl_syntax::SyntaxNode>,
    name: SmolStr,
) -> pcl_sema::FieldsContext {
    use pcl_syntax::ast::{self, AstNode};
    let in_options = ancestors
        .find(|n| n.kind() == pcl_syntax::SyntaxKind::BLOCK)
        .and_then(ast::Block::cast)
        .and_then(|block| block.type_name())
        .is_some_and(|type_name| type_name.text() == "options");
    match in_options {
        true => pcl_sema::FieldsContext::Option(name),
        false => pcl_sema::FieldsContext::Attribute(name),
    }
}

/// Whether the text of the line before `offset` ends with an attribute's `=` (spaces
/// after it aside), not with a comparison.
fn line_ends_with_equals(text: &str, offset: TextSize) -> bool {
    let before = text.get(..usize::from(offset)).unwrap_or_default();
    let line = before.rsplit('\n').next().unwrap_or_default().trim_end();
    line.ends_with('=') && !["==", "!=", "<=", ">="].iter().any(|op| line.ends_with(op))
}

fn reversed(mut keys: Vec<SmolStr>) -> Vec<SmolStr> {
    keys.reverse();
    keys
}

/// Whether `name` can be a PCL declaration name.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
