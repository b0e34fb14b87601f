/**
 * A Markdown text as one line of plain text, for places that show a preview rather than the rendered text (the board
 * card's two-line description): the marks go, the words stay. Not a parser: good enough for a clamp of two lines,
 * never used where the exact text matters. Free of imports, so the board's start-up code stays as small as it was.
 */
export function markdownPreview(markdown: string): string {
  return (
    markdown
      // Fenced code: keep the code, drop the fences (and their language).
      .replace(/^\s*(```|~~~)[^\n]*$/gm, '')
      // Images and links: their text.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      // Line marks: headings, quotes, list bullets and numbers, task boxes, rules.
      .replace(/^\s{0,3}#{1,6}\s+/gm, '')
      .replace(/^\s*>\s?/gm, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, '')
      .replace(/^\s*(?:[-*_]\s*){3,}$/gm, '')
      // Inline marks: bold, italics, strike-through, code.
      .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '$1')
      .replace(/\*(?=\S)(.+?)(?<=\S)\*/g, '$1')
      // Underscores mark only at word edges (snake_case stays).
      .replace(/(^|\W)__(?=\S)(.+?)(?<=\S)__(?=\W|$)/g, '$1$2')
      .replace(/(^|\W)_(?=\S)(.+?)(?<=\S)_(?=\W|$)/g, '$1$2')
      .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
      .replace(/`([^`]+)`/g, '$1')
      // Mentions (<@id>) have no name here: a plain '@'.
      .replace(/<@[0-9a-f-]{36}>/gi, '@')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
