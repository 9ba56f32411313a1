//! The token sequence the layout works on: the tree's tokens without whitespace,
//! classified and joined the way hclsyntax's scanner sees them, because hclwrite's rules
//! are written in terms of that scanner's tokens.
//!
//! The differences from our lexer that matter: keywords are plain identifiers; a line
//! comment owns the newline after it (so it ends a line); `${~`, `%{~` and `~}` are single
//! tokens; a `}` that closes `${` or `%{` is a template-sequence end, not a brace; quoted
//! and heredoc template text are literals.

use pcl_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

/// What a token is, for the layout rules (hclsyntax's token types, as far as the rules
/// tell them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Ident,
    Number,
    Newline,
    /// A `#` or `//` comment together with the newline that ends it: it ends its line.
    LineComment,
    /// A `/* */` comment, or a line comment at the very end of the file.
    Comment,
    OpenBrace,
    CloseBrace,
    OpenBracket,
    CloseBracket,
    OpenParen,
    CloseParen,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// `}` or `~}` closing a template interpolation or directive.
    TemplateSeqEnd,
    OpenQuote,
    CloseQuote,
    OpenHeredoc,
    CloseHeredoc,
    /// Template text, quoted or in a heredoc.
    Literal,
    Equal,
    Comma,
    Dot,
    Ellipsis,
    DoubleColon,
    Colon,
    Question,
    Bang,
    Minus,
    /// `+ * / %`
    Arithmetic,
    /// `== != < <= > >=`
    Comparison,
    /// `&& ||`
    Logical,
    Other,
}

/// One token of the layout: where it is in the original text and how many spaces the
/// layout puts before it.
#[derive(Debug, Clone)]
pub(crate) struct FormatToken {
    pub(crate) class: Class,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) spaces_before: usize,
}

impl FormatToken {
    /// The changes in bracket depth it makes (hclwrite's `tokenBracketChange`).
    pub(crate) fn bracket_change(&self) -> i32 {
        match self.class {
            Class::OpenBrace
            | Class::OpenBracket
            | Class::OpenParen
            | Class::TemplateInterp
            | Class::TemplateControl => 1,
            Class::CloseBrace | Class::CloseBracket | Class::CloseParen | Class::TemplateSeqEnd => {
                -1
            }
            _ => 0,
        }
    }

    /// Whether the token ends a line.
    pub(crate) fn ends_line(&self) -> bool {
        matches!(self.class, Class::Newline | Class::LineComment)
    }
}

/// The layout tokens of a tree, in source order.
pub(crate) fn format_tokens(root: &SyntaxNode) -> Vec<FormatToken> {
    let mut res: Vec<FormatToken> = Vec::new();
    let mut tokens = root
        .descendants_with_tokens()
        .filter_map(|element| element.into_token())
        .filter(|token| token.kind() != SyntaxKind::WHITESPACE)
        .peekable();
    while let Some(token) = tokens.next() {
        let range = token.text_range();
        let (start, mut end) = (usize::from(range.start()), usize::from(range.end()));
        let next_adjacent = |next: Option<&SyntaxToken>, kind: SyntaxKind| {
            next.is_some_and(|next| next.kind() == kind && next.text_range().start() == range.end())
        };
        let class = match token.kind() {
            SyntaxKind::COMMENT if !token.text().starts_with("/*") => {
                if next_adjacent(tokens.peek(), SyntaxKind::NEWLINE) {
                    end = tokens
                        .next()
                        .map_or(end, |newline| usize::from(newline.text_range().end()));
                    Class::LineComment
                } else {
                    Class::Comment
                }
            }
            SyntaxKind::INTERP_START | SyntaxKind::DIRECTIVE_START => {
                if next_adjacent(tokens.peek(), SyntaxKind::TILDE) {
                    end = tokens
                        .next()
                        .map_or(end, |tilde| usize::from(tilde.text_range().end()));
                }
                if token.kind() == SyntaxKind::INTERP_START {
                    Class::TemplateInterp
                } else {
                    Class::TemplateControl
                }
            }
            SyntaxKind::TILDE if next_adjacent(tokens.peek(), SyntaxKind::R_CURLY) => {
                end = tokens
                    .next()
                    .map_or(end, |brace| usize::from(brace.text_range().end()));
                Class::TemplateSeqEnd
            }
            SyntaxKind::R_CURLY if closes_template_sequence(&token) => Class::TemplateSeqEnd,
            kind => class_of(kind),
        };
        res.push(FormatToken {
            class,
            start,
            end,
            spaces_before: 0,
        });
    }
    res
}

fn closes_template_sequence(token: &SyntaxToken) -> bool {
    token.parent().is_some_and(|parent| {
        matches!(
            parent.kind(),
            SyntaxKind::TEMPLATE_INTERP
                | SyntaxKind::TEMPLATE_IF_DIRECTIVE
                | SyntaxKind::TEMPLATE_ELSE_DIRECTIVE
                | SyntaxKind::TEMPLATE_ENDIF_DIRECTIVE
                | SyntaxKind::TEMPLATE_FOR_DIRECTIVE
                | SyntaxKind::TEMPLATE_ENDFOR_DIRECTIVE
        )
    })
}

fn class_of(kind: SyntaxKind) -> Class {
    use SyntaxKind as K;
    match kind {
        K::IDENT
        | K::TRUE_KW
        | K::FALSE_KW
        | K::NULL_KW
        | K::FOR_KW
        | K::IN_KW
        | K::IF_KW
        | K::ELSE_KW
        | K::ENDIF_KW
        | K::ENDFOR_KW => Class::Ident,
        K::NUMBER => Class::Number,
        K::NEWLINE => Class::Newline,
        K::COMMENT => Class::Comment,
        K::L_CURLY => Class::OpenBrace,
        K::R_CURLY => Class::CloseBrace,
        K::L_BRACK => Class::OpenBracket,
        K::R_BRACK => Class::CloseBracket,
        K::L_PAREN => Class::OpenParen,
        K::R_PAREN => Class::CloseParen,
        K::INTERP_START => Class::TemplateInterp,
        K::DIRECTIVE_START => Class::TemplateControl,
        K::OPEN_QUOTE => Class::OpenQuote,
        K::CLOSE_QUOTE => Class::CloseQuote,
        K::HEREDOC_START => Class::OpenHeredoc,
        K::HEREDOC_END => Class::CloseHeredoc,
        K::TEMPLATE_CHUNK => Class::Literal,
        K::EQ => Class::Equal,
        K::COMMA => Class::Comma,
        K::DOT => Class::Dot,
        K::DOT3 => Class::Ellipsis,
        K::COLON2 => Class::DoubleColon,
        K::COLON => Class::Colon,
        K::QUESTION => Class::Question,
        K::BANG => Class::Bang,
        K::MINUS => Class::Minus,
        K::PLUS | K::STAR | K::SLASH | K::PERCENT => Class::Arithmetic,
        K::EQ2 | K::NEQ | K::LT | K::LTEQ | K::GT | K::GTEQ => Class::Comparison,
        K::AMP2 | K::PIPE2 => Class::Logical,
        _ => Class::Other,
    }
}
