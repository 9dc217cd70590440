import { SITE } from '../../shared/site';
import { type RenderedEmail, renderEmail } from '../mail/layout';

/** The emails of a team license (decision 051): plain, friendly, and each says what to do next. */

/** The longest owner's name an invitation repeats; a longer one is cut with an ellipsis. */
export const INVITER_NAME_MAX = 40;

/** A word a mail program could turn into a link: a scheme, an address, `www.`, or a dot before a domain's letters. */
const LINK_LIKE = /[:/@\\]|^www\.|\.\p{L}{2,}/iu;

/**
 * An owner's name as an invitation to a stranger's mailbox shows it (issue 63): whoever buys a team chooses the
 * name, so it must not carry a link or a long pitch. Control characters go, words a mail program would link go, and
 * what is left is cut to INVITER_NAME_MAX characters; the subject never holds it.
 */
export function inviterNameForMail(name: string): string {
  const words = name
    .normalize('NFKC')
    .replace(/\p{C}/gu, ' ')
    .split(/\s+/)
    .filter((word) => word && !LINK_LIKE.test(word));
  const plain = words.join(' ');
  if (!plain) return 'The owner of a team license';
  return plain.length <= INVITER_NAME_MAX ? plain : `${plain.slice(0, INVITER_NAME_MAX - 1).trimEnd()}…`;
}

export function renderInvitationEmail(input: {
  ownerName: string;
  toolName: string;
  platform: string | null;
  link: string;
  expiresOn: string;
}): RenderedEmail {
  const tool = input.platform ? `${input.toolName} (${input.platform})` : input.toolName;
  return renderEmail({
    subject: `An invitation to use ${tool}`,
    heading: `A seat of ${input.toolName} for you`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Hello, ${inviterNameForMail(input.ownerName)} has a team license for ${tool} from ${SITE.name} and has given you one of its seats.`,
      },
      {
        kind: 'paragraph',
        text: 'Accept the invitation to get your own license key (or sign-in details), the installer and its updates in My Tools. If you have no account yet, you can create one on the way.',
      },
      { kind: 'button', label: 'Accept the invitation', href: input.link },
      {
        kind: 'paragraph',
        text: `The link works once and until ${input.expiresOn}. If you were not expecting it, you can ignore this email.`,
      },
    ],
  });
}

export function renderAcceptedEmail(input: {
  ownerName: string;
  memberName: string;
  memberEmail: string;
  toolName: string;
  seatsUsed: number;
  seats: number;
}): RenderedEmail {
  return renderEmail({
    subject: `${input.memberName} joined your ${input.toolName} team`,
    heading: 'Your invitation was accepted',
    blocks: [
      {
        kind: 'paragraph',
        text: `Hello ${input.ownerName}, ${input.memberName} (${input.memberEmail}) accepted your invitation and now holds a seat of ${input.toolName}.`,
      },
      { kind: 'details', rows: [['Seats in use', `${input.seatsUsed} of ${input.seats}`]] },
      {
        kind: 'paragraph',
        text: 'You can see each member and their devices in My Tools, and take a seat back there whenever someone leaves.',
      },
    ],
  });
}

export function renderRemovedEmail(input: {
  memberName: string;
  ownerName: string;
  toolName: string;
  byOperator: boolean;
}): RenderedEmail {
  const who = input.byOperator ? `${SITE.name}, at the request of the team's owner,` : input.ownerName;
  return renderEmail({
    subject: `Your seat of ${input.toolName} has ended`,
    heading: 'Your seat was taken back',
    blocks: [
      {
        kind: 'paragraph',
        text: `Hello ${input.memberName}, ${who} took back your seat of ${input.toolName}. Your license key no longer works and the tool has left your My Tools.`,
      },
      {
        kind: 'paragraph',
        text: `If this is a mistake, please ask ${input.ownerName}. Questions for us? Reply to ${SITE.supportEmail} or call ${SITE.phone}.`,
      },
    ],
  });
}

export function renderSeatsAddedEmail(input: {
  ownerName: string;
  toolName: string;
  added: number;
  seats: number;
  invoiceNumber: string | null;
}): RenderedEmail {
  return renderEmail({
    subject: `${input.added} more ${input.added === 1 ? 'seat' : 'seats'} of ${input.toolName}`,
    heading: 'Thank you: your team has grown',
    blocks: [
      {
        kind: 'paragraph',
        text: `Hello ${input.ownerName}, your team license for ${input.toolName} now has ${input.seats} seats. Invite people to the new ones from My Tools.`,
      },
      ...(input.invoiceNumber
        ? [
            {
              kind: 'details' as const,
              rows: [['Tax invoice', `${input.invoiceNumber} (attached)`] as [string, string]],
            },
          ]
        : []),
    ],
  });
}
