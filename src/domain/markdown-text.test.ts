import { describe, expect, it } from 'vitest';
import { markdownPreview } from './markdown-text';

describe('markdownPreview', () => {
  it('keeps the words and drops the marks', () => {
    expect(markdownPreview('## The plan\n- **Draft** the _outline_\n- Ship `v2` ~~today~~\n\n> quoted')).toBe(
      'The plan Draft the outline Ship v2 today quoted',
    );
  });

  it('keeps the text of links and images, not their addresses', () => {
    expect(markdownPreview('See [the spec](https://example.com/spec) and ![diagram](/x.png)')).toBe('See the spec and diagram');
  });

  it('keeps code from a fenced block, and task boxes and numbers go', () => {
    expect(markdownPreview('1. [x] done\n2) [ ] todo\n```ts\nconst a = 1;\n```\n---')).toBe('done todo const a = 1;');
  });

  it('leaves plain text and lone marks alone', () => {
    expect(markdownPreview('2 * 3 = 6, snake_case_name')).toBe('2 * 3 = 6, snake_case_name');
    expect(markdownPreview('Ping <@0b7c3d2e-1f00-4a5b-9c8d-7e6f5a4b3c2d> please')).toBe('Ping @ please');
  });
});
