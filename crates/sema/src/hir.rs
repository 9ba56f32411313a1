//! Declaration bodies lowered to a range-free arena (the third firewall): expressions,
//! attributes and nested blocks by id, their strings, numbers and lists in tables of the
//! body, with a separate source map of declaration-relative ranges. A whitespace or comment edit leaves a `Body` equal, so nothing that reads it
//! re-runs. Lowering also applies the reference's syntactic rules: parentheses vanish, a
//! template that is one interpolation is that expression, `-<number>` is one literal,
//! `%{if}`/`%{for}` become a conditional and a joined `for`.

use std::borrow::Cow;

use pcl_syntax::ast::{self, AstNode, NumberValue};
use pcl_syntax::{ElementRef, NodeOrToken, NodeRef, SyntaxKind, TextRange, TextSize, TokenRef};

use smol_str::SmolStr;

use crate::items::{DeclId, decl_syntax};

/// An expression's index in its body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, salsa::SalsaValue)]
pub struct ExprId(pub u32);

/// An attribute's index in its body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AttrId(pub u32);

/// A block's index in its body; block 0 is the declaration itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BlockId(pub u32);

impl BlockId {
    pub const ROOT: BlockId = BlockId(0);
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    Negate,
    Not,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    And,
    Or,
}

/// A string of a body (`Body::str`), a name or a literal's text: where it is in the
/// body's `text`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct StrId {
    start: u32,
    len: u32,
}

/// A number literal of a body (`Body::number`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NumberId(u32);

/// A list of expressions of a body (`Body::list`): a run of its `lists`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ExprList {
    start: u32,
    len: u32,
}

/// Strings of a body (`Body::label`): a run of its `labels`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct StrList {
    start: u32,
    len: u32,
}

/// An object's key and value expressions (`Body::pairs`): a run of its `lists`, two ids
/// a pair.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PairList {
    start: u32,
    len: u32,
}

/// An expression, without positions. Its strings, numbers and lists are in tables of its
/// body, so each expression is 16 bytes and a body allocates a few arrays, not one per
/// list, name or string.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    /// Parse recovery: nothing usable was written.
    Missing,
    Null,
    Bool(bool),
    Number(NumberId),
    /// A number literal beyond what a value can hold (the parser reported it).
    BadNumber,
    /// Literal template text (a quoted string without interpolations is one).
    String(StrId),
    /// A template of several parts: `string`, lifted by its parts.
    Template(ExprList),
    /// `%{for}` in a template: the `for` expression whose elements are joined.
    TemplateJoin(ExprId),
    Tuple(ExprList),
    /// Key and value expressions; a literal key is a `String`, `Number`, `Bool` or `Null`.
    Object(PairList),
    Name(StrId),
    GetAttr {
        base: ExprId,
        name: StrId,
    },
    Index {
        base: ExprId,
        key: ExprId,
    },
    /// `source[*].steps`: `each` is typed once per element, with `SplatItem` the element.
    Splat {
        source: ExprId,
        each: ExprId,
    },
    SplatItem,
    /// Boxed, as `For`: calls are few, and the name would make every expression larger.
    Call(Box<CallExpr>),
    /// `[for k, v in c: value if cond]`, or with `key` the object form `{for ..: key => value}`.
    /// Boxed: the largest variant otherwise, it would make every expression 80 bytes.
    For(Box<ForExpr>),
    Conditional {
        cond: ExprId,
        then: ExprId,
        otherwise: ExprId,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
}

// Every expression of every body is one of these: keep large variants boxed or in tables.
const _: () = assert!(std::mem::size_of::<Expr>() <= 16);

impl Expr {
    /// Whether this is a literal (a constant key of an object constructor).
    pub fn is_literal(&self) -> bool {
        matches!(
            self,
            Expr::Null | Expr::Bool(_) | Expr::Number(_) | Expr::String(_)
        )
    }
}

/// A number literal's value: inline when its mantissa and exponent fit machine integers,
/// boxed otherwise (a `NumberValue` holds a big integer: two allocations per literal, a
/// hundredth of a check's memory when every literal paid them).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Number {
    Small { mantissa: i64, exponent: i32 },
    Big(Box<NumberValue>),
}

impl Number {
    pub fn new(value: NumberValue) -> Number {
        match value.small_parts() {
            Some((mantissa, exponent)) => Number::Small { mantissa, exponent },
            None => Number::Big(Box::new(value)),
        }
    }

    /// The value of a number literal's text (`None` when no value holds it): plain digits,
    /// as most literals are, read here without the big integer `NumberValue::parse` makes.
    pub fn parse(text: &str) -> Option<Number> {
        match NumberValue::plain_small_parts(text) {
            Some((mantissa, exponent)) => Some(Number::Small { mantissa, exponent }),
            None => NumberValue::parse(text).ok().map(Number::new),
        }
    }

    /// The negated value.
    pub fn negate(&self) -> Number {
        match self {
            Number::Small { mantissa, exponent } => match mantissa.checked_neg() {
                Some(mantissa) => Number::Small {
                    mantissa,
                    exponent: *exponent,
                },
                None => Number::new(self.value().negate()),
            },
            Number::Big(value) => Number::new(value.negate()),
        }
    }

    pub fn value(&self) -> NumberValue {
        match self {
            Number::Small { mantissa, exponent } => {
                NumberValue::from_small_parts(*mantissa, *exponent)
            }
            Number::Big(value) => (**value).clone(),
        }
    }

    /// Whether the value is a whole number.
    pub fn is_integer(&self) -> bool {
        match self {
            Number::Small { exponent, .. } => *exponent >= 0,
            Number::Big(value) => value.is_integer(),
        }
    }
}

/// A call of a built-in function (`Expr::Call`); `expand` when the last argument ends
/// with `...`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CallExpr {
    pub name: SmolStr,
    pub args: ExprList,
    pub expand: bool,
}

/// A `for` expression (`Expr::For`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ForExpr {
    pub key_var: Option<StrId>,
    pub value_var: StrId,
    pub collection: ExprId,
    pub key: Option<ExprId>,
    pub value: ExprId,
    pub cond: Option<ExprId>,
    pub grouped: bool,
}

/// `name = value` in a block; the name a string of the body (`Body::attr_name`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AttrData {
    pub name: StrId,
    pub value: ExprId,
}

/// A block: its type, labels, attributes and nested blocks in source order.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BlockData {
    /// The type keyword and the labels (`Body::block_kind`, `Body::label`): strings of
    /// the body, the labels a run of its `labels`.
    pub kind: StrId,
    pub labels: StrList,
    pub attrs: Box<[AttrId]>,
    pub blocks: Box<[BlockId]>,
    /// Whether the block has its `{` (a syntax error otherwise, already reported: its
    /// body is not judged for what it lacks).
    pub opened: bool,
    /// Whether the block is empty and closed on the line of its `{` (`{}`), where a fix
    /// that adds an attribute must put the `}` on a line of its own.
    pub closed_on_open_line: bool,
}

/// A declaration's body. For a local, `value` is its expression and block 0 is empty.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Body {
    pub exprs: Box<[Expr]>,
    /// The strings, numbers and lists the expressions and blocks name by index (`StrId`,
    /// `NumberId`, `ExprList` and `PairList`, `StrList`): the strings one after another
    /// in one text.
    pub text: Box<str>,
    pub numbers: Box<[Number]>,
    pub lists: Box<[ExprId]>,
    pub labels: Box<[StrId]>,
    pub attrs: Box<[AttrData]>,
    pub blocks: Box<[BlockData]>,
    pub value: Option<ExprId>,
    /// Literal keys given twice in one object: pairs of the first key and the repeated one
    /// (`{ team = "a", team = "b" }`; the checker reports them), a run of `lists` as an
    /// object's pairs are (empty in most bodies; a run keeps `Body` at 128 bytes, which
    /// lowering moves whole).
    pub repeated_keys: PairList,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }

    pub fn str(&self, id: StrId) -> &str {
        let start = id.start as usize;
        &self.text[start..start + id.len as usize]
    }

    pub fn number(&self, id: NumberId) -> &Number {
        &self.numbers[id.0 as usize]
    }

    pub fn list(&self, list: ExprList) -> &[ExprId] {
        &self.lists[list.start as usize..][..list.len as usize]
    }

    /// An object's (key, value) pairs.
    pub fn pairs(&self, list: PairList) -> &[[ExprId; 2]] {
        self.lists[list.start as usize..][..2 * list.len as usize]
            .as_chunks()
            .0
    }

    pub fn attr(&self, id: AttrId) -> &AttrData {
        &self.attrs[id.0 as usize]
    }

    pub fn block(&self, id: BlockId) -> &BlockData {
        &self.blocks[id.0 as usize]
    }

    /// A block's type keyword.
    pub fn block_kind(&self, id: BlockId) -> &str {
        self.str(self.block(id).kind)
    }

    /// A block's label `i`.
    pub fn label(&self, id: BlockId, i: usize) -> Option<&str> {
        let run = self.block(id).labels;
        let labels = &self.labels[run.start as usize..][..run.len as usize];
        labels.get(i).map(|&label| self.str(label))
    }

    pub fn label_count(&self, id: BlockId) -> usize {
        self.block(id).labels.len as usize
    }

    pub fn attr_name(&self, id: AttrId) -> &str {
        self.str(self.attr(id).name)
    }

    /// The attribute `name` of a block.
    pub fn find_attr(&self, block: BlockId, name: &str) -> Option<AttrId> {
        (self.block(block).attrs.iter().copied()).find(|&a| self.attr_name(a) == name)
    }

    /// The nested blocks of type `kind` of a block.
    pub fn find_blocks<'a>(
        &'a self,
        block: BlockId,
        kind: &'a str,
    ) -> impl Iterator<Item = BlockId> + 'a {
        (self.block(block).blocks.iter().copied()).filter(move |&b| self.block_kind(b) == kind)
    }
}

/// Where each part of a body is, relative to the start of its declaration.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BodySourceMap {
    pub exprs: Box<[TextRange]>,
    /// The attribute's name.
    pub attr_names: Box<[TextRange]>,
    /// The block's type keyword (for a local, block 0 is its name).
    pub block_types: Box<[TextRange]>,
    pub block_labels: Box<[Box<[TextRange]>]>,
    /// The block's opening brace (empty at the block's end when there is none).
    pub block_opens: Box<[TextRange]>,
}

/// The body and its source map.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BodyWithSourceMap {
    pub body: Body,
    pub source_map: BodySourceMap,
}

/// Lower a declaration's syntax, with the source map: what turns diagnostics' anchors
/// into ranges. Only needed where there is something to report.
#[salsa::tracked(returns(ref))]
pub fn body_with_source_map<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
) -> BodyWithSourceMap {
    lower(db, decl, true)
}

/// The range-free body: what checking reads. Lowered on its own (not cloned from
/// `body_with_source_map`) and without collecting ranges, so checking neither builds,
/// keeps nor verifies source maps.
#[salsa::tracked(returns(ref))]
pub fn body<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Body {
    lower(db, decl, false).body
}

/// The name Pulumi gives a declaration (Go's `LogicalName()`): its `__logicalName` when
/// that is a string literal, else its own name. A component's parent sets its inputs and
/// reads its outputs by these names.
pub fn logical_name<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> &'db str {
    let body = body(db, decl);
    let logical = (body.find_attr(BlockId::ROOT, "__logicalName")).and_then(|attr| {
        match body.expr(body.attr(attr).value) {
            Expr::String(name) => Some(body.str(*name)),
            _ => None,
        }
    });
    logical.unwrap_or(decl.name(db).as_str())
}

/// Lower a declaration; its source map stays empty unless `with_source_map`.
fn lower<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
    with_source_map: bool,
) -> BodyWithSourceMap {
    let Some(syntax) = decl_syntax(db, decl) else {
        return BodyWithSourceMap::default();
    };
    let root = syntax.0.root();
    let mut lower = SPARE_LOWERER.take().unwrap_or_default();
    lower.with_source_map = with_source_map;
    match root.kind() {
        SyntaxKind::ATTRIBUTE => {
            let name_range = (root.token(&[SyntaxKind::IDENT]))
                .map_or(TextRange::empty(TextSize::from(0)), |n| n.text_range());
            lower.push_block(
                StrId::default(),
                StrList::default(),
                Vec::new(),
                name_range,
                None,
            );
            let value = lower.expr_opt(root.first_expr(), root);
            lower.value = Some(value);
        }
        SyntaxKind::BLOCK => {
            lower.block(root);
        }
        _ => {}
    }
    let lowered = lower.finish();
    if lower.exprs.capacity() <= SPARE_EXPRS {
        SPARE_LOWERER.set(Some(lower));
    }
    lowered
}

thread_local! {
    /// The arrays of the thread's last lowering, emptied, for its next: grown once to the
    /// size of the largest body, not again for each (a body's arrays are copied out at
    /// their exact size when it is done).
    static SPARE_LOWERER: std::cell::Cell<Option<Lowerer>> = const { std::cell::Cell::new(None) };
}

/// The most expressions a spare lowerer has room for: one that lowered a larger body (a
/// list of thousands) is dropped, not kept for the thread's life.
const SPARE_EXPRS: usize = 4096;

/// Objects of at most this many pairs are searched for a repeated key pair by pair.
const SCANNED_KEYS: usize = 16;

/// How a template's literal chunks are decoded (quoted strings and heredocs differ).
type Decode<'a> = dyn for<'t> Fn(TokenRef<'t>) -> Cow<'t, str> + 'a;

/// Lowering reads the item's flat tree (`NodeRef`), with the typed AST's rules for which
/// child is which: an expression is the first child node of an expression kind (the
/// second for a `then` branch, an index key, a right operand), a name its first `IDENT`.
#[derive(Default)]
struct Lowerer {
    exprs: Vec<Expr>,
    expr_ranges: Vec<TextRange>,
    /// The body's tables (`Body::text`, `numbers`, `lists`, `labels`).
    text: String,
    numbers: Vec<Number>,
    lists: Vec<ExprId>,
    labels: Vec<StrId>,
    attrs: Vec<AttrData>,
    attr_names: Vec<TextRange>,
    blocks: Vec<BlockData>,
    block_types: Vec<TextRange>,
    block_labels: Vec<Box<[TextRange]>>,
    block_opens: Vec<TextRange>,
    value: Option<ExprId>,
    /// Whether the ranges above are kept (checking reads bodies without them).
    with_source_map: bool,
    /// Stacks of the lists being lowered (elements, arguments, template parts; object
    /// items; a block's attributes and blocks): each list is pushed above the lists that
    /// enclose it and taken off when done (into `lists`, or an array of its own).
    ids: Vec<ExprId>,
    pairs: Vec<[ExprId; 2]>,
    attr_ids: Vec<AttrId>,
    block_ids: Vec<BlockId>,
    repeated_keys: Vec<[ExprId; 2]>,
}

/// The items of `items` from `start` on, taken off it into a block of their size: a
/// body's arrays are kept as long as its memo.
fn take_from<T>(items: &mut Vec<T>, start: usize) -> Box<[T]> {
    // Copied out at once, into an array of their number (`drain` would move them one
    // by one).
    if start > 0 {
        return items.split_off(start).into_boxed_slice();
    }
    // All of them (a body's arrays when it is done): `split_off(0)` would hand the
    // buffer over, to be shrunk, and give `items` a new one as large for the next body.
    let mut taken = Vec::with_capacity(items.len());
    taken.append(items);
    taken.into_boxed_slice()
}

impl Lowerer {
    /// The lowered body; the arrays are left empty, for the next.
    /// The repeated keys found, moved onto the end of `lists` (`Body::repeated_keys`).
    fn repeated_keys_list(&mut self) -> PairList {
        self.pairs.append(&mut self.repeated_keys);
        self.pairs_from(0)
    }

    fn finish(&mut self) -> BodyWithSourceMap {
        let repeated_keys = self.repeated_keys_list();
        debug_assert!(self.ids.is_empty() && self.pairs.is_empty());
        debug_assert!(self.attr_ids.is_empty() && self.block_ids.is_empty());
        let lowered = BodyWithSourceMap {
            body: Body {
                exprs: take_from(&mut self.exprs, 0),
                text: Box::from(self.text.as_str()),
                numbers: take_from(&mut self.numbers, 0),
                lists: take_from(&mut self.lists, 0),
                labels: take_from(&mut self.labels, 0),
                attrs: take_from(&mut self.attrs, 0),
                blocks: take_from(&mut self.blocks, 0),
                value: self.value.take(),
                repeated_keys,
            },
            source_map: BodySourceMap {
                exprs: take_from(&mut self.expr_ranges, 0),
                attr_names: take_from(&mut self.attr_names, 0),
                block_types: take_from(&mut self.block_types, 0),
                block_labels: take_from(&mut self.block_labels, 0),
                block_opens: take_from(&mut self.block_opens, 0),
            },
        };
        self.text.clear();
        lowered
    }

    /// `text` as a string of the body.
    fn str(&mut self, text: &str) -> StrId {
        let start = self.text.len();
        self.text.push_str(text);
        self.str_from(start)
    }

    /// The body's text from `start` on, as a string of the body.
    fn str_from(&self, start: usize) -> StrId {
        StrId {
            start: start as u32,
            len: (self.text.len() - start) as u32,
        }
    }

    fn number(&mut self, number: Number) -> Expr {
        self.numbers.push(number);
        Expr::Number(NumberId(self.numbers.len() as u32 - 1))
    }

    /// Remember the literal keys the object whose pairs start at `start` on `pairs` gives
    /// twice, each with its first (`Body::repeated_keys`): pair by pair in a small object,
    /// by sorting the keys in a large one.
    // Not inlined: lowering an expression is the hot path, and most objects repeat nothing.
    #[inline(never)]
    fn note_repeated_keys(&mut self, start: usize) {
        let (text, exprs) = (self.text.as_bytes(), &self.exprs);
        let key_str = |key: ExprId| match exprs[key.0 as usize] {
            Expr::String(t) => Some(t),
            _ => None,
        };
        let bytes = |t: StrId| &text[t.start as usize..][..t.len as usize];
        let pairs = &self.pairs[start..];
        if pairs.len() <= SCANNED_KEYS {
            // The keys so far, on the stack; lengths are compared before texts.
            let mut seen = [(StrId::default(), ExprId(0)); SCANNED_KEYS];
            let mut count = 0;
            for &[key, _] in pairs {
                let Some(name) = key_str(key) else {
                    continue;
                };
                let first = (seen[..count].iter())
                    .find(|(other, _)| other.len == name.len && bytes(*other) == bytes(name));
                match first {
                    Some(&(_, first)) => self.repeated_keys.push([first, key]),
                    None => {
                        seen[count] = (name, key);
                        count += 1;
                    }
                }
            }
            return;
        }
        let keys = (pairs.iter()).filter_map(|&[key, _]| Some((bytes(key_str(key)?), key)));
        let mut sorted: Vec<(&[u8], ExprId)> = keys.collect();
        // Stable: a key's first occurrence leads its run.
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        let mut repeated: Vec<[ExprId; 2]> = (sorted.chunk_by(|a, b| a.0 == b.0))
            .flat_map(|run| run[1..].iter().map(|&(_, key)| [run[0].1, key]))
            .collect();
        repeated.sort_by_key(|[_, key]| *key);
        self.repeated_keys.extend(repeated);
    }

    /// The list on `ids` from `start` on, taken off it into the body's lists.
    fn list_from(&mut self, start: usize) -> ExprList {
        let at = self.lists.len() as u32;
        self.lists.extend_from_slice(&self.ids[start..]);
        let len = (self.ids.len() - start) as u32;
        self.ids.truncate(start);
        ExprList { start: at, len }
    }

    /// The pairs on `pairs` from `start` on, taken off it into the body's lists.
    fn pairs_from(&mut self, start: usize) -> PairList {
        let at = self.lists.len() as u32;
        self.lists
            .extend_from_slice(self.pairs[start..].as_flattened());
        let len = (self.pairs.len() - start) as u32;
        self.pairs.truncate(start);
        PairList { start: at, len }
    }

    /// A block; `label_ranges` are kept with the source map (empty without).
    fn push_block(
        &mut self,
        kind: StrId,
        labels: StrList,
        label_ranges: Vec<TextRange>,
        type_range: TextRange,
        open: Option<TextRange>,
    ) -> BlockId {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(BlockData {
            kind,
            labels,
            attrs: Box::default(),
            blocks: Box::default(),
            opened: open.is_some(),
            closed_on_open_line: false,
        });
        if self.with_source_map {
            self.block_types.push(type_range);
            self.block_labels.push(label_ranges.into_boxed_slice());
            self.block_opens.push(open.unwrap_or(type_range));
        }
        id
    }

    fn block(&mut self, block: NodeRef<'_>) -> BlockId {
        let type_token = block.token(&[SyntaxKind::IDENT]);
        let kind = type_token.map_or(StrId::default(), |t| self.str(t.text()));
        let type_range = type_token.map_or(block.text_range(), |t| t.text_range());
        let start = self.labels.len();
        let mut label_ranges = Vec::new();
        for label in block.children_where(|kind| kind == SyntaxKind::BLOCK_LABEL) {
            let value = label.label_value();
            let value = value.map_or(StrId::default(), |value| self.str(&value));
            self.labels.push(value);
            if self.with_source_map {
                label_ranges.push(label.text_range());
            }
        }
        let labels = StrList {
            start: start as u32,
            len: (self.labels.len() - start) as u32,
        };
        let body = block.child(SyntaxKind::BODY);
        let open_token = (block.tokens())
            .chain(body.into_iter().flat_map(NodeRef::tokens))
            .find(|t| t.kind() == SyntaxKind::L_CURLY);
        let open = open_token.map(|t| t.text_range());
        let closed_on_open_line = body.is_none_or(|b| b.children().next().is_none())
            && open_token.is_some_and(|open| {
                (block.tokens())
                    .find(|t| t.kind() == SyntaxKind::R_CURLY)
                    .is_some_and(|close| !open.text_until(close).contains('\n'))
            });
        let id = self.push_block(kind, labels, label_ranges, type_range, open);
        let (attrs, blocks) = (self.attr_ids.len(), self.block_ids.len());
        for item in body.into_iter().flat_map(NodeRef::children) {
            match item.kind() {
                SyntaxKind::ATTRIBUTE => {
                    let Some(name) = item.token(&[SyntaxKind::IDENT]) else {
                        continue;
                    };
                    let value = self.expr_opt(item.first_expr(), item);
                    self.attr_ids.push(AttrId(self.attrs.len() as u32));
                    let name_text = self.str(name.text());
                    self.attrs.push(AttrData {
                        name: name_text,
                        value,
                    });
                    if self.with_source_map {
                        self.attr_names.push(name.text_range());
                    }
                }
                SyntaxKind::BLOCK => {
                    let nested = self.block(item);
                    self.block_ids.push(nested);
                }
                _ => {}
            }
        }
        let data = &mut self.blocks[id.0 as usize];
        data.attrs = take_from(&mut self.attr_ids, attrs);
        data.blocks = take_from(&mut self.block_ids, blocks);
        data.closed_on_open_line = closed_on_open_line;
        id
    }

    fn alloc(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(expr);
        if self.with_source_map {
            self.expr_ranges.push(range);
        }
        id
    }

    /// `expr`, or a missing expression at the end of `parent`.
    fn expr_opt(&mut self, expr: Option<NodeRef<'_>>, parent: NodeRef<'_>) -> ExprId {
        match expr {
            Some(expr) => self.expr(expr),
            None => {
                let end = parent.text_range().end();
                self.alloc(Expr::Missing, TextRange::empty(end))
            }
        }
    }

    /// A range for the source map, read only when there is one.
    fn kept_range(&self, range: impl FnOnce() -> TextRange) -> TextRange {
        match self.with_source_map {
            true => range(),
            false => TextRange::default(),
        }
    }

    fn expr(&mut self, node: NodeRef<'_>) -> ExprId {
        let range = self.kept_range(|| node.text_range());
        let lowered = match node.kind() {
            SyntaxKind::PAREN_EXPR => return self.expr_opt(node.first_expr(), node),
            SyntaxKind::LITERAL_EXPR => self.literal_expr(node),
            SyntaxKind::TEMPLATE_EXPR => {
                return self.template(node.template_parts(), range, &|token| {
                    ast::unescape_quoted(token.text())
                });
            }
            SyntaxKind::HEREDOC_EXPR => {
                // The heredoc's own rules (dedenting `<<-`) stay with the typed AST.
                let texts: Vec<(TextSize, String)> =
                    (ast::HeredocExpr::cast(node.to_syntax_node()).into_iter())
                        .flat_map(|heredoc| heredoc.chunk_texts())
                        .map(|(token, text)| (token.text_range().start(), text))
                        .collect();
                // In document order: found by where the chunk starts in the heredoc.
                let start = node.text_range().start();
                return self.template(node.template_parts(), range, &|token| {
                    let relative = token.text_range().start() - start;
                    match texts.binary_search_by_key(&relative, |(at, _)| *at) {
                        Ok(index) => Cow::Owned(texts[index].1.clone()),
                        Err(_) => Cow::Borrowed(token.text()),
                    }
                });
            }
            SyntaxKind::TUPLE_EXPR => {
                let start = self.ids.len();
                for element in node.exprs() {
                    let element = self.expr(element);
                    self.ids.push(element);
                }
                Expr::Tuple(self.list_from(start))
            }
            SyntaxKind::OBJECT_EXPR => {
                let start = self.pairs.len();
                for item in node.children_where(|kind| kind == SyntaxKind::OBJECT_ITEM) {
                    let key = match item.child(SyntaxKind::OBJECT_KEY) {
                        Some(key) => match literal_name(key) {
                            Some(name) => {
                                let name = Expr::String(self.str(&name));
                                self.alloc(name, key.text_range())
                            }
                            None => self.expr_opt(key.first_expr(), key),
                        },
                        None => self.alloc(Expr::Missing, item.text_range()),
                    };
                    let value = self.expr_opt(item.first_expr(), item);
                    self.pairs.push([key, value]);
                }
                self.note_repeated_keys(start);
                Expr::Object(self.pairs_from(start))
            }
            SyntaxKind::VARIABLE_EXPR => match node.token(&[SyntaxKind::IDENT]) {
                Some(name) => Expr::Name(self.str(name.text())),
                None => Expr::Missing,
            },
            SyntaxKind::CALL_EXPR => {
                let arg_list = node.child(SyntaxKind::ARG_LIST);
                let start = self.ids.len();
                for arg in arg_list.into_iter().flat_map(NodeRef::exprs) {
                    let arg = self.expr(arg);
                    self.ids.push(arg);
                }
                Expr::Call(Box::new(CallExpr {
                    name: SmolStr::new(node.call_name()),
                    args: self.list_from(start),
                    expand: arg_list.is_some_and(|list| list.token(&[SyntaxKind::DOT3]).is_some()),
                }))
            }
            SyntaxKind::GET_ATTR_EXPR => {
                let base = self.expr_opt(node.first_expr(), node);
                match node.token(&[SyntaxKind::IDENT]) {
                    Some(name) => Expr::GetAttr {
                        base,
                        name: self.str(name.text()),
                    },
                    None => Expr::Missing,
                }
            }
            SyntaxKind::INDEX_EXPR => {
                let base = self.expr_opt(node.first_expr(), node);
                let key = self.expr_opt(node.exprs().nth(1), node);
                Expr::Index { base, key }
            }
            SyntaxKind::LEGACY_INDEX_EXPR => {
                let base = self.expr_opt(node.first_expr(), node);
                let key = self.number_token(node.token(&[SyntaxKind::NUMBER]), node);
                Expr::Index { base, key }
            }
            SyntaxKind::SPLAT_EXPR => {
                let source = self.expr_opt(node.first_expr(), node);
                let steps: Vec<NodeRef<'_>> = node
                    .children_where(<ast::SplatStep as AstNode>::can_cast)
                    .collect();
                let each = self.splat_steps(&steps, node);
                Expr::Splat { source, each }
            }
            SyntaxKind::FOR_TUPLE_EXPR => {
                let value = self.expr_opt(node.first_expr(), node);
                let cond =
                    (node.child(SyntaxKind::FOR_COND)).map(|c| self.expr_opt(c.first_expr(), c));
                self.for_expr(node.child(SyntaxKind::FOR_INTRO), None, value, cond, false)
            }
            SyntaxKind::FOR_OBJECT_EXPR => {
                let key = self.expr_opt(node.first_expr(), node);
                let value = self.expr_opt(node.exprs().nth(1), node);
                let cond =
                    (node.child(SyntaxKind::FOR_COND)).map(|c| self.expr_opt(c.first_expr(), c));
                let grouped = node.token(&[SyntaxKind::DOT3]).is_some();
                self.for_expr(
                    node.child(SyntaxKind::FOR_INTRO),
                    Some(key),
                    value,
                    cond,
                    grouped,
                )
            }
            SyntaxKind::CONDITIONAL_EXPR => {
                let mut branches = node.exprs();
                let (cond, then, otherwise) = (branches.next(), branches.next(), branches.next());
                Expr::Conditional {
                    cond: self.expr_opt(cond, node),
                    then: self.expr_opt(then, node),
                    otherwise: self.expr_opt(otherwise, node),
                }
            }
            SyntaxKind::UNARY_EXPR => {
                let negate = (node.token(&[SyntaxKind::MINUS, SyntaxKind::BANG]))
                    .is_some_and(|op| op.kind() == SyntaxKind::MINUS);
                let operand = node.first_expr();
                let number = (operand.filter(|o| o.kind() == SyntaxKind::LITERAL_EXPR))
                    .and_then(number_value);
                match number {
                    Some(Some(number)) if negate => self.number(number.negate()),
                    _ => {
                        let operand = self.expr_opt(operand, node);
                        let op = if negate {
                            UnaryOp::Negate
                        } else {
                            UnaryOp::Not
                        };
                        Expr::Unary { op, operand }
                    }
                }
            }
            SyntaxKind::BINARY_EXPR => {
                let mut operands = node.exprs();
                let (lhs, rhs) = (operands.next(), operands.next());
                let lhs = self.expr_opt(lhs, node);
                let rhs = self.expr_opt(rhs, node);
                let op = (node.tokens())
                    .find(|t| !t.kind().is_trivia())
                    .and_then(|op| binary_op(op.kind()));
                match op {
                    Some(op) => Expr::Binary { op, lhs, rhs },
                    None => Expr::Missing,
                }
            }
            _ => Expr::Missing,
        };
        self.alloc(lowered, range)
    }

    /// The (key, value) variables of a `for` introduction: `k, v` or just `v`.
    fn for_vars(&mut self, intro: NodeRef<'_>) -> (Option<StrId>, Option<StrId>) {
        let mut idents = (intro.tokens()).filter(|t| t.kind() == SyntaxKind::IDENT);
        let first = idents.next().map(|t| self.str(t.text()));
        match idents.next() {
            Some(second) => (first, Some(self.str(second.text()))),
            None => (None, first),
        }
    }

    fn literal_expr(&mut self, literal: NodeRef<'_>) -> Expr {
        match literal_token(literal).map(|t| t.kind()) {
            Some(SyntaxKind::TRUE_KW) => Expr::Bool(true),
            Some(SyntaxKind::FALSE_KW) => Expr::Bool(false),
            Some(SyntaxKind::NULL_KW) => Expr::Null,
            _ => match number_value(literal) {
                Some(Some(number)) => self.number(number),
                _ => Expr::BadNumber,
            },
        }
    }

    fn number_token(&mut self, token: Option<TokenRef<'_>>, parent: NodeRef<'_>) -> ExprId {
        match token {
            Some(token) => {
                let value = match Number::parse(token.text()) {
                    Some(number) => self.number(number),
                    None => Expr::BadNumber,
                };
                self.alloc(value, token.text_range())
            }
            None => self.alloc(Expr::Missing, TextRange::empty(parent.text_range().end())),
        }
    }

    /// The per-element expression of a splat: the steps applied to the element.
    fn splat_steps(&mut self, steps: &[NodeRef<'_>], splat: NodeRef<'_>) -> ExprId {
        let start = steps
            .first()
            .map_or(splat.text_range().end(), |s| s.text_range().start());
        let mut current = self.alloc(Expr::SplatItem, TextRange::empty(start));
        for (i, step) in steps.iter().enumerate() {
            let range = TextRange::new(start, step.text_range().end());
            let expr = match step.kind() {
                SyntaxKind::ATTR_STEP => match step.token(&[SyntaxKind::IDENT]) {
                    Some(name) => Expr::GetAttr {
                        base: current,
                        name: self.str(name.text()),
                    },
                    None => Expr::Missing,
                },
                SyntaxKind::INDEX_STEP => {
                    let key = self.expr_opt(step.first_expr(), *step);
                    Expr::Index { base: current, key }
                }
                SyntaxKind::LEGACY_INDEX_STEP => {
                    let key = self.number_token(step.token(&[SyntaxKind::NUMBER]), *step);
                    Expr::Index { base: current, key }
                }
                _ => {
                    let each = self.splat_steps(&steps[i + 1..], splat);
                    let range = TextRange::new(start, splat.text_range().end());
                    return self.alloc(
                        Expr::Splat {
                            source: current,
                            each,
                        },
                        range,
                    );
                }
            };
            current = self.alloc(expr, range);
        }
        current
    }

    fn for_expr(
        &mut self,
        intro: Option<NodeRef<'_>>,
        key: Option<ExprId>,
        value: ExprId,
        cond: Option<ExprId>,
        grouped: bool,
    ) -> Expr {
        let Some(intro) = intro else {
            return Expr::Missing;
        };
        let collection = self.expr_opt(intro.first_expr(), intro);
        let (key_var, value_var) = self.for_vars(intro);
        let Some(value_var) = value_var else {
            return Expr::Missing;
        };
        Expr::For(Box::new(ForExpr {
            key_var,
            value_var,
            collection,
            key,
            value,
            cond,
            grouped,
        }))
    }

    /// A template from its parts (walked again as needed: no list of them is made);
    /// `decode` turns a chunk's text into its value.
    fn template<'t>(
        &mut self,
        parts: impl Iterator<Item = ElementRef<'t>> + Clone,
        range: TextRange,
        decode: &Decode<'_>,
    ) -> ExprId {
        let mut first_two = parts.clone();
        let (first, second) = (first_two.next(), first_two.next());
        if let (Some(NodeOrToken::Node(interp)), None) = (first, second)
            && interp.kind() == SyntaxKind::TEMPLATE_INTERP
        {
            return self.expr_opt(interp.first_expr(), interp);
        }
        // Only text (most strings): one literal, without lowering the parts.
        if parts.clone().all(|p| p.as_token().is_some()) {
            let text = match (first, second) {
                (Some(NodeOrToken::Token(only)), None) => self.str(&decode(only)),
                _ => {
                    let start = self.text.len();
                    for token in parts.filter_map(ElementRef::into_token) {
                        self.text.push_str(&decode(token));
                    }
                    self.str_from(start)
                }
            };
            return self.alloc(Expr::String(text), range);
        }
        let start = self.ids.len();
        self.template_parts(parts, decode);
        match self.ids[start..] {
            [] => self.alloc(Expr::String(StrId::default()), range),
            [single] if self.exprs[single.0 as usize].is_literal() => {
                self.ids.truncate(start);
                let expr = self.exprs[single.0 as usize].clone();
                self.alloc(expr, range)
            }
            _ => {
                let parts = self.list_from(start);
                self.alloc(Expr::Template(parts), range)
            }
        }
    }

    /// Lower a template's parts onto `ids`.
    fn template_parts<'t>(
        &mut self,
        parts: impl Iterator<Item = ElementRef<'t>>,
        decode: &Decode<'_>,
    ) {
        // The literal chunks between two interpolations go into the body's text one
        // after another, as one string: where it starts, and its range.
        let mut chunk: Option<(usize, TextRange)> = None;
        let flush = |this: &mut Lowerer, chunk: &mut Option<(usize, TextRange)>| {
            if let Some((start, range)) = chunk.take() {
                let text = this.str_from(start);
                let literal = this.alloc(Expr::String(text), range);
                this.ids.push(literal);
            }
        };
        for part in parts {
            let node = match part {
                NodeOrToken::Token(token) => {
                    let start = self.text.len();
                    self.text.push_str(&decode(token));
                    let r = self.kept_range(|| token.text_range());
                    chunk = Some(chunk.map_or((start, r), |(start, old)| (start, old.cover(r))));
                    continue;
                }
                NodeOrToken::Node(node) => node,
            };
            flush(self, &mut chunk);
            let range = self.kept_range(|| node.text_range());
            match node.kind() {
                SyntaxKind::TEMPLATE_IF => {
                    let cond = (node.child(SyntaxKind::TEMPLATE_IF_DIRECTIVE))
                        .map(|d| self.expr_opt(d.first_expr(), d))
                        .unwrap_or_else(|| self.alloc(Expr::Missing, range));
                    let mut branches =
                        node.children_where(|kind| kind == SyntaxKind::TEMPLATE_PARTS);
                    let (then, otherwise) = (branches.next(), branches.next());
                    let then = self.branch(then, range, decode);
                    let otherwise = self.branch(otherwise, range, decode);
                    let conditional = self.alloc(
                        Expr::Conditional {
                            cond,
                            then,
                            otherwise,
                        },
                        range,
                    );
                    self.ids.push(conditional);
                }
                SyntaxKind::TEMPLATE_FOR => {
                    let directive = node.child(SyntaxKind::TEMPLATE_FOR_DIRECTIVE);
                    let value = self.branch(node.child(SyntaxKind::TEMPLATE_PARTS), range, decode);
                    let lowered = match directive {
                        Some(d) => {
                            let collection = self.expr_opt(d.first_expr(), d);
                            match self.for_vars(d) {
                                (key_var, Some(value_var)) => Expr::For(Box::new(ForExpr {
                                    key_var,
                                    value_var,
                                    collection,
                                    key: None,
                                    value,
                                    cond: None,
                                    grouped: false,
                                })),
                                (_, None) => Expr::Missing,
                            }
                        }
                        None => Expr::Missing,
                    };
                    let for_id = self.alloc(lowered, range);
                    let join = self.alloc(Expr::TemplateJoin(for_id), range);
                    self.ids.push(join);
                }
                _ => {
                    let interpolated = self.expr_opt(node.first_expr(), node);
                    self.ids.push(interpolated);
                }
            }
        }
        flush(self, &mut chunk);
    }

    /// One branch of a template directive, as a template of its own (`""` when absent).
    fn branch(
        &mut self,
        parts: Option<NodeRef<'_>>,
        range: TextRange,
        decode: &Decode<'_>,
    ) -> ExprId {
        match parts {
            Some(parts) => self.template(parts.template_parts(), parts.text_range(), decode),
            None => self.alloc(
                Expr::String(StrId::default()),
                TextRange::empty(range.end()),
            ),
        }
    }
}

/// An object key as a literal name when it is one: a bare identifier (not parenthesised),
/// a literal string, or a number (`0` gives `"0"`).
fn literal_name(key: NodeRef<'_>) -> Option<Cow<'_, str>> {
    let expr = key.first_expr()?;
    match expr.kind() {
        SyntaxKind::VARIABLE_EXPR => Some(expr.token(&[SyntaxKind::IDENT])?.text().into()),
        SyntaxKind::LITERAL_EXPR => Some(literal_token(expr)?.text().into()),
        SyntaxKind::TEMPLATE_EXPR => expr.template_literal(),
        _ => None,
    }
}

fn literal_token(literal: NodeRef<'_>) -> Option<TokenRef<'_>> {
    literal.token(&[
        SyntaxKind::NUMBER,
        SyntaxKind::TRUE_KW,
        SyntaxKind::FALSE_KW,
        SyntaxKind::NULL_KW,
    ])
}

/// The exact value of a number literal; `None` for `true`, `false` and `null`, `Some(None)`
/// for a number no value holds (the parser reported it).
fn number_value(literal: NodeRef<'_>) -> Option<Option<Number>> {
    let token = literal_token(literal).filter(|t| t.kind() == SyntaxKind::NUMBER)?;
    Some(Number::parse(token.text()))
}

fn binary_op(kind: SyntaxKind) -> Option<BinaryOp> {
    Some(match kind {
        SyntaxKind::PLUS => BinaryOp::Add,
        SyntaxKind::MINUS => BinaryOp::Subtract,
        SyntaxKind::STAR => BinaryOp::Multiply,
        SyntaxKind::SLASH => BinaryOp::Divide,
        SyntaxKind::PERCENT => BinaryOp::Modulo,
        SyntaxKind::EQ2 => BinaryOp::Equal,
        SyntaxKind::NEQ => BinaryOp::NotEqual,
        SyntaxKind::LT => BinaryOp::Less,
        SyntaxKind::LTEQ => BinaryOp::LessEqual,
        SyntaxKind::GT => BinaryOp::Greater,
        SyntaxKind::GTEQ => BinaryOp::GreaterEqual,
        SyntaxKind::AMP2 => BinaryOp::And,
        SyntaxKind::PIPE2 => BinaryOp::Or,
        _ => return None,
    })
}

/// The direct subexpressions of an expression of `body`, pushed onto `stack` in source
/// order (a walk that pops them takes them last first).
pub(crate) fn push_children(body: &Body, expr: &Expr, stack: &mut Vec<ExprId>) {
    match expr {
        Expr::Missing
        | Expr::Null
        | Expr::Bool(_)
        | Expr::Number(_)
        | Expr::BadNumber
        | Expr::String(_)
        | Expr::Name(_)
        | Expr::SplatItem => {}
        Expr::Template(parts) | Expr::Tuple(parts) => stack.extend_from_slice(body.list(*parts)),
        Expr::Call(call) => stack.extend_from_slice(body.list(call.args)),
        Expr::TemplateJoin(inner) => stack.push(*inner),
        Expr::Object(items) => stack.extend_from_slice(body.pairs(*items).as_flattened()),
        Expr::GetAttr { base, .. } => stack.push(*base),
        Expr::Index { base, key } => stack.extend([*base, *key]),
        Expr::Splat { source, each } => stack.extend([*source, *each]),
        Expr::For(for_expr) => stack.extend(
            std::iter::once(for_expr.collection)
                .chain(for_expr.key)
                .chain([for_expr.value])
                .chain(for_expr.cond),
        ),
        Expr::Conditional {
            cond,
            then,
            otherwise,
        } => stack.extend([*cond, *then, *otherwise]),
        Expr::Unary { operand, .. } => stack.push(*operand),
        Expr::Binary { lhs, rhs, .. } => stack.extend([*lhs, *rhs]),
    }
}

#[cfg(test)]
mod tests {
    use super::Number;
    use pcl_syntax::ast::NumberValue;

    /// Plain digits are read without a big integer, to the same value and representation
    /// as through `NumberValue::parse`; negating does as `NumberValue::negate` does.
    #[test]
    fn plain_literals_read_as_number_values_do() {
        let texts = [
            "0",
            "00",
            "7",
            "007",
            "761",
            "7600",
            "100000000000000000",
            "999999999999999999",
            "1000000000000000000",
            "9223372036854775807",
            "9223372036854775808",
            "1.5",
            "15e3",
            "0.0",
        ];
        for text in texts {
            let through_value = NumberValue::parse(text).ok().map(Number::new);
            assert_eq!(Number::parse(text), through_value, "{text}");
            let negated = NumberValue::parse(text)
                .ok()
                .map(|v| Number::new(v.negate()));
            assert_eq!(Number::parse(text).map(|n| n.negate()), negated, "-{text}");
        }
        assert_eq!(Number::parse("1e99999999999999999999"), None);
    }
}
