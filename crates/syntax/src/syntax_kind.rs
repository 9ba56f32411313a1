//! `SyntaxKind`: every token and node kind of the tree, and the `T![..]` shorthand for tokens.

/// Declares `SyntaxKind` and `KIND_ORDER` (every kind in declaration order, so that
/// `from_raw` needs no unsafe transmute) from one list.
macro_rules! syntax_kinds {
    ($($(#[$doc:meta])* $kind:ident,)*) => {
        /// The kind of a token or node. Tokens come first, then nodes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        #[allow(non_camel_case_types)]
        pub enum SyntaxKind {
            $($(#[$doc])* $kind,)*
        }

        const KIND_ORDER: &[SyntaxKind] = &[$(SyntaxKind::$kind,)*];
    };
}

syntax_kinds! {
    // Trivia.
    WHITESPACE,
    NEWLINE,
    COMMENT,

    // Atoms.
    IDENT,
    NUMBER,

    // Keywords: produced by the parser remapping `IDENT` in context, never by the lexer.
    TRUE_KW,
    FALSE_KW,
    NULL_KW,
    FOR_KW,
    IN_KW,
    IF_KW,
    ELSE_KW,
    ENDIF_KW,
    ENDFOR_KW,

    // Operators and punctuation.
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    EQ2,
    NEQ,
    LT,
    GT,
    LTEQ,
    GTEQ,
    AMP2,
    PIPE2,
    BANG,
    EQ,
    COLON,
    COLON2,
    QUESTION,
    FAT_ARROW,
    DOT3,
    COMMA,
    DOT,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    L_CURLY,
    R_CURLY,
    TILDE,

    // Templates.
    /// The `"` that opens a quoted template.
    OPEN_QUOTE,
    /// The `"` that closes a quoted template.
    CLOSE_QUOTE,
    /// Literal template text, escapes and `$${`/`%%{` included, as written.
    TEMPLATE_CHUNK,
    /// `${`
    INTERP_START,
    /// `%{`
    DIRECTIVE_START,
    /// `<<ID` or `<<-ID` and the line ending after it.
    HEREDOC_START,
    /// The closing `ID` of a heredoc with the indentation before it.
    HEREDOC_END,

    /// Bytes the lexer could not make sense of.
    ERROR_TOKEN,
    /// End of input; never stored in the tree.
    EOF,

    // Nodes.
    SOURCE_FILE,
    BODY,
    ATTRIBUTE,
    BLOCK,
    BLOCK_LABEL,

    LITERAL_EXPR,
    TEMPLATE_EXPR,
    HEREDOC_EXPR,
    TUPLE_EXPR,
    OBJECT_EXPR,
    OBJECT_ITEM,
    OBJECT_KEY,
    VARIABLE_EXPR,
    CALL_EXPR,
    ARG_LIST,
    GET_ATTR_EXPR,
    INDEX_EXPR,
    LEGACY_INDEX_EXPR,
    SPLAT_EXPR,
    ATTR_STEP,
    INDEX_STEP,
    LEGACY_INDEX_STEP,
    SPLAT_STEP,
    FOR_TUPLE_EXPR,
    FOR_OBJECT_EXPR,
    FOR_INTRO,
    FOR_COND,
    CONDITIONAL_EXPR,
    UNARY_EXPR,
    BINARY_EXPR,
    PAREN_EXPR,

    TEMPLATE_INTERP,
    TEMPLATE_IF,
    TEMPLATE_FOR,
    TEMPLATE_IF_DIRECTIVE,
    TEMPLATE_ELSE_DIRECTIVE,
    TEMPLATE_ENDIF_DIRECTIVE,
    TEMPLATE_FOR_DIRECTIVE,
    TEMPLATE_ENDFOR_DIRECTIVE,
    TEMPLATE_PARTS,

    /// Tokens the parser skipped while recovering from an error.
    ERROR,
}

impl SyntaxKind {
    /// The number of kinds; kinds are `0..COUNT`.
    pub const COUNT: u16 = SyntaxKind::ERROR as u16 + 1;

    /// Whitespace, newlines and comments.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE | SyntaxKind::COMMENT
        )
    }

    /// Whether this kind is a token (as opposed to a node).
    pub fn is_token(self) -> bool {
        self <= SyntaxKind::EOF
    }

    /// Converts a raw kind back; kinds out of range become `ERROR`.
    pub fn from_raw(raw: u16) -> SyntaxKind {
        if raw < SyntaxKind::COUNT {
            KIND_ORDER[raw as usize]
        } else {
            SyntaxKind::ERROR
        }
    }

    /// How the kind reads in an error message (`` `=` ``, `identifier`).
    pub fn describe(self) -> &'static str {
        use SyntaxKind as K;
        match self {
            K::WHITESPACE => "whitespace",
            K::NEWLINE => "newline",
            K::COMMENT => "comment",
            K::IDENT => "identifier",
            K::NUMBER => "number",
            K::TRUE_KW => "`true`",
            K::FALSE_KW => "`false`",
            K::NULL_KW => "`null`",
            K::FOR_KW => "`for`",
            K::IN_KW => "`in`",
            K::IF_KW => "`if`",
            K::ELSE_KW => "`else`",
            K::ENDIF_KW => "`endif`",
            K::ENDFOR_KW => "`endfor`",
            K::PLUS => "`+`",
            K::MINUS => "`-`",
            K::STAR => "`*`",
            K::SLASH => "`/`",
            K::PERCENT => "`%`",
            K::EQ2 => "`==`",
            K::NEQ => "`!=`",
            K::LT => "`<`",
            K::GT => "`>`",
            K::LTEQ => "`<=`",
            K::GTEQ => "`>=`",
            K::AMP2 => "`&&`",
            K::PIPE2 => "`||`",
            K::BANG => "`!`",
            K::EQ => "`=`",
            K::COLON => "`:`",
            K::COLON2 => "`::`",
            K::QUESTION => "`?`",
            K::FAT_ARROW => "`=>`",
            K::DOT3 => "`...`",
            K::COMMA => "`,`",
            K::DOT => "`.`",
            K::L_PAREN => "`(`",
            K::R_PAREN => "`)`",
            K::L_BRACK => "`[`",
            K::R_BRACK => "`]`",
            K::L_CURLY => "`{`",
            K::R_CURLY => "`}`",
            K::TILDE => "`~`",
            K::OPEN_QUOTE | K::CLOSE_QUOTE => "`\"`",
            K::TEMPLATE_CHUNK => "template text",
            K::INTERP_START => "`${`",
            K::DIRECTIVE_START => "`%{`",
            K::HEREDOC_START => "heredoc",
            K::HEREDOC_END => "heredoc end marker",
            K::ERROR_TOKEN => "invalid character",
            K::EOF => "end of file",
            _ => "syntax",
        }
    }
}

/// The token kind for a punctuation or keyword literal: `T![=>]`, `T![for]`.
#[macro_export]
macro_rules! T {
    [+] => { $crate::SyntaxKind::PLUS };
    [-] => { $crate::SyntaxKind::MINUS };
    [*] => { $crate::SyntaxKind::STAR };
    [/] => { $crate::SyntaxKind::SLASH };
    [%] => { $crate::SyntaxKind::PERCENT };
    [==] => { $crate::SyntaxKind::EQ2 };
    [!=] => { $crate::SyntaxKind::NEQ };
    [<] => { $crate::SyntaxKind::LT };
    [>] => { $crate::SyntaxKind::GT };
    [<=] => { $crate::SyntaxKind::LTEQ };
    [>=] => { $crate::SyntaxKind::GTEQ };
    [&&] => { $crate::SyntaxKind::AMP2 };
    [||] => { $crate::SyntaxKind::PIPE2 };
    [!] => { $crate::SyntaxKind::BANG };
    [=] => { $crate::SyntaxKind::EQ };
    [:] => { $crate::SyntaxKind::COLON };
    [::] => { $crate::SyntaxKind::COLON2 };
    [?] => { $crate::SyntaxKind::QUESTION };
    [=>] => { $crate::SyntaxKind::FAT_ARROW };
    [...] => { $crate::SyntaxKind::DOT3 };
    [,] => { $crate::SyntaxKind::COMMA };
    [.] => { $crate::SyntaxKind::DOT };
    ['('] => { $crate::SyntaxKind::L_PAREN };
    [')'] => { $crate::SyntaxKind::R_PAREN };
    ['['] => { $crate::SyntaxKind::L_BRACK };
    [']'] => { $crate::SyntaxKind::R_BRACK };
    ['{'] => { $crate::SyntaxKind::L_CURLY };
    ['}'] => { $crate::SyntaxKind::R_CURLY };
    [~] => { $crate::SyntaxKind::TILDE };
    [true] => { $crate::SyntaxKind::TRUE_KW };
    [false] => { $crate::SyntaxKind::FALSE_KW };
    [null] => { $crate::SyntaxKind::NULL_KW };
    [for] => { $crate::SyntaxKind::FOR_KW };
    [in] => { $crate::SyntaxKind::IN_KW };
    [if] => { $crate::SyntaxKind::IF_KW };
    [else] => { $crate::SyntaxKind::ELSE_KW };
    [endif] => { $crate::SyntaxKind::ENDIF_KW };
    [endfor] => { $crate::SyntaxKind::ENDFOR_KW };
}
