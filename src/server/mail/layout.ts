import { formatAddress, SITE } from '../../shared/site';

/** The building blocks every email is made of; each renders to HTML and to plain text. */
export type EmailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string; label?: string }
  | { kind: 'button'; href: string; label: string }
  | { kind: 'details'; rows: Array<[label: string, value: string]> }
  /** Text someone else wrote (a visitor's message), shown as written: line breaks kept, never read as HTML. */
  | { kind: 'quote'; text: string }
  /** HTML the server made safe itself (sanitised release notes), with its plain-text rendering. */
  | { kind: 'sanitisedHtml'; html: string; text: string };

export type RenderedEmail = { subject: string; html: string; text: string };

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const BRAND = '#1e3a5f';

function blockHtml(block: EmailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(block.text)}</p>`;
    case 'code':
      return `${block.label ? `<p style="margin:0 0 6px;color:#475569">${escapeHtml(block.label)}</p>` : ''}<p style="margin:0 0 16px;font:600 20px/1.4 ui-monospace,Menlo,Consolas,monospace;letter-spacing:2px;background:#f1f5f9;padding:12px 16px;border-radius:8px">${escapeHtml(block.text)}</p>`;
    case 'button':
      return `<p style="margin:8px 0 20px"><a href="${escapeHtml(block.href)}" style="display:inline-block;background:${BRAND};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(block.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#64748b;word-break:break-all">${escapeHtml(block.href)}</p>`;
    case 'details':
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#475569">${escapeHtml(label)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'quote':
      return `<div style="margin:0 0 16px;padding:12px 16px;border-left:3px solid #cbd5e1;background:#f8fafc;white-space:pre-wrap;word-break:break-word;line-height:1.6">${escapeHtml(block.text)}</div>`;
    case 'sanitisedHtml':
      return `<div style="margin:0 0 16px;line-height:1.6">${block.html}</div>`;
  }
}

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'code':
      return `${block.label ? `${block.label}\n` : ''}    ${block.text}`;
    case 'button':
      return `${block.label}: ${block.href}`;
    case 'details':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'quote':
    case 'sanitisedHtml':
      return block.text;
  }
}

/** Renders one email in the firm's layout, as HTML and as plain text with the same content. */
export function renderEmail(input: {
  subject: string;
  heading: string;
  blocks: EmailBlock[];
}): RenderedEmail {
  const footer = `${SITE.name} · ${formatAddress()} · ${SITE.phone} · ${SITE.email}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(input.subject)}</title></head><body style="margin:0;background:#f8fafc;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a"><div style="max-width:560px;margin:0 auto;padding:32px 20px"><p style="margin:0 0 24px;font-weight:700;color:${BRAND};font-size:18px">${escapeHtml(SITE.name)}</p><div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px"><h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(input.heading)}</h1>${input.blocks.map(blockHtml).join('')}</div><p style="margin:20px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p></div></body></html>`;
  const text = [input.heading, '', ...input.blocks.map(blockText).flatMap((t) => [t, '']), '—', footer].join(
    '\n',
  );
  return { subject: input.subject, html, text };
}
