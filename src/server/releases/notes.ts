import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { makeRoom } from '../kernel/ttl-cache';

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
  const known = rendered.get(notesMarkdown);
  if (known !== undefined) return known;
  const html = sanitizeHtml(markdown.parse(notesMarkdown) as string, ALLOWED).trim();
  makeRoom(rendered, RENDERED_NOTES);
  rendered.set(notesMarkdown, html);
  return html;
}

/**
 * Notes already rendered, by their Markdown: the same text always gives the same HTML, and every appcast and update
 * check carries a release's notes, so a release day rendered and sanitised the same notes on every request
 * (`npm run bench -- --release-day`). A few hundred releases' worth.
 */
const RENDERED_NOTES = 500;
const rendered = new Map<string, string>();
