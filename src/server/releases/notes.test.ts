import { describe, expect, it } from 'vitest';
import { renderNotes } from './notes';

describe('release notes', () => {
  it('renders Markdown formatting, lists, code and web links', () => {
    const html = renderNotes(
      '## Faster merging\n\n- **bold** and _em_\n- `code`\n\n[site](https://example.in) [mail](mailto:a@example.in)',
    );
    expect(html).toContain('<h2>Faster merging</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="https://example.in" rel="noopener noreferrer nofollow">site</a>');
    expect(html).toContain('<a href="mailto:a@example.in"');
  });

  it('drops scripts, event handlers and javascript: links, keeping the text around them', () => {
    const html = renderNotes(
      [
        'Before <script>alert(1)</script> after',
        '',
        '<img src="x" onerror="alert(2)"> <b onclick="alert(3)">bold</b>',
        '',
        '[x](javascript:alert(4)) [y](JaVaScRiPt:alert(5)) <a href="javascript:alert(6)">z</a>',
        '',
        '[d](data:text/html,hi)',
        '',
        '<iframe src="https://evil.example"></iframe><style>body{}</style>',
      ].join('\n'),
    );
    expect(html).not.toMatch(/<script|alert\(1\)|<img|onerror|onclick|javascript:|<iframe|<style|data:/i);
    expect(html).toContain('Before');
    expect(html).toContain('after');
    expect(html).toContain('<b>bold</b>');
    expect(html).toMatch(/x.*y.*z/s);
  });

  it('renders empty notes as nothing', () => {
    expect(renderNotes('')).toBe('');
  });
});
