import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/** Marked with its defaults (GitHub-flavoured), its own instance so nothing else's options leak in. */
const markdown = new Marked({ gfm: true, breaks: false, async: false });

/**
 * What release notes may contain once rendered: text formatting, headings, lists, quotes, code and links to
 * http(s) or mail. No script, style, image, form or frame; no attribute but a link's href, title and rel, so no event
 * handler; any other scheme (javascript:, data:, vbscript:) leaves the link as its text.
 */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'del',
    's',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'a',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }),
  },
};

/**
 * Release notes (Markdown, typed by the operator) as HTML that is safe to put into My Tools, an email and an
 * appcast's description: rendered by marked, then sanitised, since Markdown passes raw HTML through.
 */
export function renderNotes(notesMarkdown: string): string {
  const html = markdown.parse(notesMarkdown) as string;
  return sanitizeHtml(html, ALLOWED).trim();
}
