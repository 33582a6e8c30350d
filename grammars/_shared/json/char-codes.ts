/** The characters JSON's structure is made of, as `charCodeAt` gives them (the readers that walk JSON text by hand). */
export const SPACE = 32;
export const TAB = 9;
export const NEWLINE = 10;
export const RETURN = 13;
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
