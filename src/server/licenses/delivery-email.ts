import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import { type EmailBlock, type RenderedEmail, renderEmail } from '../mail/layout';

export type DeliveredSecret = { licenseKey: string } | { username: string; password: string };

export type DeliveryEmailInput = {
  /** First delivery after payment, or a copy the owner asked for from My Tools. */
  occasion: 'purchase' | 'resend';
  customerName: string;
  toolName: string;
  device: string | null;
  /** Already formatted, e.g. '₹1,499.00'. */
  amountPaid: string;
  razorpayPaymentId: string | null;
  secret: DeliveredSecret;
  /** Absent when the tool has no file to download (e.g. an online tool delivered as credentials). */
  downloadUrl?: string;
  /** The tax invoice attached to the email, if any. */
  invoiceNumber?: string;
  /** The order's page (/my-tools/orders/<id>): its price, documents, license and history. */
  orderUrl?: string;
};

export const toolLabel = (name: string, device: string | null) => (device ? `${name} (${device})` : name);

/** The email that carries a license key or credentials, the amount paid and a 3-hour download link. */
export function renderDeliveryEmail(input: DeliveryEmailInput): RenderedEmail {
  const label = toolLabel(input.toolName, input.device);
  const isKey = 'licenseKey' in input.secret;
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text:
        input.occasion === 'purchase'
          ? `Hello ${input.customerName}, thank you for your purchase. Your ${label} has lifetime validity; here are your details.`
          : `Hello ${input.customerName}, as requested, here are the details of your ${label} again, with a fresh download link.`,
    },
    {
      kind: 'details',
      rows: [
        ['Tool', label],
        ['Amount paid', input.amountPaid],
        ...(input.razorpayPaymentId
          ? [['Payment reference', input.razorpayPaymentId] as [string, string]]
          : []),
        ...(input.invoiceNumber
          ? [['Tax invoice', `${input.invoiceNumber} (attached)`] as [string, string]]
          : []),
        ['Validity', 'Lifetime'],
        ...(input.orderUrl ? [['Your order', input.orderUrl] as [string, string]] : []),
      ],
    },
  ];
  blocks.push(...secretBlocks(input.secret));
  if (input.downloadUrl) {
    blocks.push(
      { kind: 'button', href: input.downloadUrl, label: `Download ${label}` },
      {
        kind: 'paragraph',
        text: `This download link is valid for ${DOWNLOAD_LINK_VALID_HOURS} hours. After that, open My Tools on our website and choose "Get Credentials" to receive a fresh link.`,
      },
    );
  }
  blocks.push(
    {
      kind: 'paragraph',
      text: isKey
        ? 'Only download the tool from our official website, then enter the license key when the tool asks for it. Your antivirus may warn about a new program the first time; that is expected for our installer.'
        : 'Sign in with these details on our website. Please keep them private and do not share them.',
    },
    {
      kind: 'paragraph',
      text: `Questions? Write to ${SITE.supportEmail} or call ${SITE.phone}.`,
    },
  );
  const subject =
    input.occasion === 'purchase'
      ? `Your ${label} ${isKey ? 'license key' : 'sign-in details'}`
      : `Your ${label} ${isKey ? 'license key' : 'sign-in details'} (requested copy)`;
  return renderEmail({
    subject,
    heading: input.occasion === 'purchase' ? 'Your purchase is ready' : 'Your tool details',
    blocks,
  });
}

function secretBlocks(secret: DeliveredSecret): EmailBlock[] {
  if ('licenseKey' in secret) return [{ kind: 'code', label: 'Your license key', text: secret.licenseKey }];
  return [
    { kind: 'code', label: 'Username', text: secret.username },
    { kind: 'code', label: 'Password', text: secret.password },
  ];
}

type TrialDeliveryEmailInput = Pick<
  DeliveryEmailInput,
  'customerName' | 'toolName' | 'device' | 'secret' | 'downloadUrl'
> & {
  /** The trial's end, already formatted (India time), and where to buy the tool. */
  trial: { endsAt: string; buyUrl: string };
};

/**
 * The delivery email of a free trial, built from the purchase's blocks: the key or credentials and a download
 * link, plus when the trial ends and where to buy.
 */
export function renderTrialDeliveryEmail(input: TrialDeliveryEmailInput): RenderedEmail {
  const { trial } = input;
  const label = toolLabel(input.toolName, input.device);
  const isKey = 'licenseKey' in input.secret;
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text: `Hello ${input.customerName}, your free trial of ${label} has started. It ends on ${trial.endsAt} (India time); buy the tool before then and it keeps running with the same ${isKey ? 'license key' : 'sign-in details'}.`,
    },
    {
      kind: 'details',
      rows: [
        ['Tool', label],
        ['Trial ends', trial.endsAt],
      ],
    },
    ...secretBlocks(input.secret),
  ];
  if (input.downloadUrl) {
    blocks.push(
      { kind: 'button', href: input.downloadUrl, label: `Download ${label}` },
      {
        kind: 'paragraph',
        text: `This download link is valid for ${DOWNLOAD_LINK_VALID_HOURS} hours.`,
      },
    );
  }
  blocks.push(
    {
      kind: 'paragraph',
      text: 'The trial runs on one computer. Reinstalling or updating the tool does not change when it ends.',
    },
    { kind: 'button', href: trial.buyUrl, label: `Buy ${label}` },
    { kind: 'paragraph', text: `Questions? Write to ${SITE.supportEmail} or call ${SITE.phone}.` },
  );
  return renderEmail({
    subject: `Your free trial of ${label}: ${isKey ? 'license key' : 'sign-in details'}`,
    heading: 'Your free trial has started',
    blocks,
  });
}
