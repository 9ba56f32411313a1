//! Lexer tests.
