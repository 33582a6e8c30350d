/**
 * `/metrics` dumps are often cut by `curl | head` or a killed server. When the array cannot be
 * read, this finds the end of its last complete element (brace depth back to the array's, outside
 * strings) and returns the text up to it with the array closed, so the complete elements survive.
 */
export function closeTruncatedArray(text: string): string | null {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '[') return null;
  let depth = 0;
  let inString = false;
  let lastElementEnd = -1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 1) lastElementEnd = i + 1;
      if (depth === 0) return null; // the array is complete: nothing to salvage
    }
  }
  return lastElementEnd < 0 ? null : `${text.slice(0, lastElementEnd)}]`;
}
