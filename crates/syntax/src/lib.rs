//! Syntax of PCL: lexer, parser and lossless syntax tree.
