//! Templates: quoted strings and heredocs, with `${ }` interpolations and `%{ }` directives.

use super::*;

// test quoted_template
// a = "x ${y} %{if z}t%{else}f%{endif} $${lit} \n"
/// A quoted template; returns the node and whether it holds interpolations or directives.
pub(super) fn quoted_template(p: &mut Parser<'_>) -> (CompletedMarker, bool) {
    let m = p.start();
    p.bump();
    let has_sequences = template_parts(p, &[]);
    // A missing closing quote was reported by the lexer.
    p.eat(CLOSE_QUOTE);
    (m.complete(p, TEMPLATE_EXPR), has_sequences)
}

// test heredoc
// a = <<-EOT
//   hello ${name}
//   EOT
pub(super) fn heredoc(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump();
    template_parts(p, &[]);
    // A missing end marker was reported by the lexer.
    p.eat(HEREDOC_END);
    m.complete(p, HEREDOC_EXPR)
}

/// Template parts until the end of the template or a directive named in `closers`
/// (`else`, `endif`, `endfor`). Returns whether any interpolation or directive was seen.
fn template_parts(p: &mut Parser<'_>, closers: &[&str]) -> bool {
    let mut has_sequences = false;
    loop {
        match p.current() {
            TEMPLATE_CHUNK => p.bump(),
            INTERP_START => {
                has_sequences = true;
                interpolation(p);
            }
            DIRECTIVE_START => {
                has_sequences = true;
                let keyword = directive_keyword(p);
                match keyword {
                    "if" => template_if(p),
                    "for" => template_for(p),
                    _ if closers.contains(&keyword) => return has_sequences,
                    "else" | "endif" => {
                        p.error(
                            codes::INVALID_TEMPLATE_DIRECTIVE,
                            format!("unexpected `%{{ {keyword} }}` without a matching `%{{ if }}`"),
                        );
                        skip_directive(p);
                    }
                    "endfor" => {
                        p.error(
                            codes::INVALID_TEMPLATE_DIRECTIVE,
                            "unexpected `%{ endfor }` without a matching `%{ for }`".to_owned(),
                        );
                        skip_directive(p);
                    }
                    _ => {
                        p.error(
                            codes::INVALID_TEMPLATE_DIRECTIVE,
                            "expected a directive keyword after `%{`: `if`, `else`, `endif`, `for` or `endfor`"
                                .to_owned(),
                        );
                        skip_directive(p);
                    }
                }
            }
            _ => return has_sequences,
        }
    }
}

/// The keyword of the directive starting at the current `%{`, or "".
fn directive_keyword<'t>(p: &Parser<'t>) -> &'t str {
    let n = if p.nth(1) == TILDE { 2 } else { 1 };
    if p.nth(n) == IDENT { p.nth_text(n) } else { "" }
}

fn skip_directive(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.skip_until(TokenSet::new(&[R_CURLY]), false);
    p.eat(R_CURLY);
    m.complete(p, ERROR);
}

/// A `~` strip marker right after `${` or `%{`. Only a `~` that touches the opener is one
/// (`${~`, as hclsyntax scans it); a spaced one is reported and skipped.
fn eat_open_strip(p: &mut Parser<'_>) {
    if p.at(TILDE) {
        let touches = p.nth_is_joined(0);
        eat_strip(
            p,
            touches,
            "`~` strips whitespace only right after `${` or `%{`: remove the space before it",
        );
    }
}

/// A `~` strip marker right before the closing `}`, touching it (`~}`); a spaced one is
/// reported and skipped.
fn eat_close_strip(p: &mut Parser<'_>) {
    if p.at(TILDE) && p.nth(1) == R_CURLY {
        let touches = p.nth_is_joined(1);
        eat_strip(
            p,
            touches,
            "`~` strips whitespace only right before `}`: remove the space after it",
        );
    }
}

/// Takes the current `~`: a strip marker when it touches what it strips for, otherwise an
/// error saying `spaced`.
fn eat_strip(p: &mut Parser<'_>, touches: bool, spaced: &str) {
    if touches {
        p.bump();
    } else {
        p.err_and_bump(codes::UNEXPECTED_TOKEN, spaced.to_owned());
    }
}

/// `${ expr }`, with optional `~` strip markers.
fn interpolation(p: &mut Parser<'_>) {
    let m = p.start();
    let opener = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(false);
    eat_open_strip(p);
    if p.at(R_CURLY) || p.at(TILDE) {
        p.error(
            codes::EXPECTED_TOKEN,
            "expected an expression inside `${ }`".to_owned(),
        );
    } else {
        super::expressions::expr(p);
    }
    eat_close_strip(p);
    close_sequence(p, "`}` to close the interpolation", Some(opener));
    p.set_newlines_significant(significant);
    m.complete(p, TEMPLATE_INTERP);
}

/// The label at the `${` of an interpolation left open.
pub(crate) const UNCLOSED_INTERPOLATION: &str =
    "this `${` is not closed (a literal `${`, as in shell text, is written `$${`)";

/// The `}` ending an interpolation or directive; on junk, skips to it. A missing `}`
/// points back at the `${` it would close, when given.
fn close_sequence(p: &mut Parser<'_>, expected: &str, opener: Option<TextRange>) {
    if p.eat(R_CURLY) {
        return;
    }
    match opener {
        Some(opener) => {
            let found = p.describe_current();
            let range = p.current_error_range();
            p.error_related(
                range,
                codes::EXPECTED_TOKEN,
                format!("expected {expected}, found {found}"),
                opener,
                UNCLOSED_INTERPOLATION,
            );
        }
        None => p.error_expected(expected),
    }
    p.skip_until(TokenSet::new(&[R_CURLY]), false);
    p.eat(R_CURLY);
}

/// `%{ keyword` with newlines ignored until the directive's `}`; returns the previous setting.
fn directive_open(p: &mut Parser<'_>, keyword: SyntaxKind) -> bool {
    p.bump();
    let significant = p.set_newlines_significant(false);
    eat_open_strip(p);
    p.bump_remap(keyword);
    significant
}

fn directive_close(p: &mut Parser<'_>, significant: bool) {
    eat_close_strip(p);
    close_sequence(p, "`}` to close the directive", None);
    p.set_newlines_significant(significant);
}

fn template_if(p: &mut Parser<'_>) {
    let m = p.start();
    let open_range = p.current_range();
    let directive = p.start();
    let significant = directive_open(p, IF_KW);
    super::expressions::expr(p);
    directive_close(p, significant);
    directive.complete(p, TEMPLATE_IF_DIRECTIVE);
    branch(p, &["else", "endif"]);
    while directive_keyword(p) == "else" {
        let directive = p.start();
        let significant = directive_open(p, ELSE_KW);
        // `%{ else if c }` (as other template languages have): one error, and the rest
        // read as a chain, so the branches after it are still parsed.
        let else_if = p.nth_at_kw(0, "if");
        if else_if {
            p.err_and_bump(
                codes::INVALID_TEMPLATE_DIRECTIVE,
                "templates have no `%{ else if }`: nest `%{ if }` in the `%{ else }` branch, or choose with `${ cond ? a : b }`".to_owned(),
            );
            super::expressions::expr(p);
        }
        directive_close(p, significant);
        directive.complete(p, TEMPLATE_ELSE_DIRECTIVE);
        if !else_if {
            branch(p, &["endif"]);
            break;
        }
        branch(p, &["else", "endif"]);
    }
    if directive_keyword(p) == "endif" {
        let directive = p.start();
        let significant = directive_open(p, ENDIF_KW);
        directive_close(p, significant);
        directive.complete(p, TEMPLATE_ENDIF_DIRECTIVE);
    } else {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            "unclosed `%{ if }`: add `%{ endif }`".to_owned(),
        );
    }
    m.complete(p, TEMPLATE_IF);
}

fn branch(p: &mut Parser<'_>, closers: &[&str]) {
    let m = p.start();
    if !p.enter_nesting() {
        // Skip to the branch's end. A closing bracket that closes nothing here ends the
        // branch too: `skip_balanced` consumes nothing there, and looping on it would hang.
        while !p.at(EOF) && !p.at_ts(TEMPLATE_END) && !closers.contains(&directive_keyword(p)) {
            let before = p.progress();
            p.skip_balanced();
            if p.progress() == before {
                break;
            }
        }
    } else {
        template_parts(p, closers);
        p.leave_nesting();
    }
    m.complete(p, TEMPLATE_PARTS);
}

const TEMPLATE_END: TokenSet = TokenSet::new(&[CLOSE_QUOTE, HEREDOC_END]);

// test template_for
// a = "%{ for k, v in m ~}${k}=${v} %{~ endfor }"
fn template_for(p: &mut Parser<'_>) {
    let m = p.start();
    let open_range = p.current_range();
    let directive = p.start();
    let significant = directive_open(p, FOR_KW);
    if p.expect(IDENT) && p.eat(COMMA) {
        p.expect(IDENT);
    }
    if p.nth_at_kw(0, "in") {
        p.bump_remap(IN_KW);
        super::expressions::expr(p);
    } else {
        p.error_expected("`in`");
    }
    directive_close(p, significant);
    directive.complete(p, TEMPLATE_FOR_DIRECTIVE);
    branch(p, &["endfor"]);
    if directive_keyword(p) == "endfor" {
        let directive = p.start();
        let significant = directive_open(p, ENDFOR_KW);
        directive_close(p, significant);
        directive.complete(p, TEMPLATE_ENDFOR_DIRECTIVE);
    } else {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            "unclosed `%{ for }`: add `%{ endfor }`".to_owned(),
        );
    }
    m.complete(p, TEMPLATE_FOR);
}
