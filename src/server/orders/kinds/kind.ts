import type { Currency } from '../../../shared/constants';
import type { OrderKindName, OrderTerms } from '../../../shared/orders';
import type { Tx } from '../../db';
import type { tools } from '../../db/schema/catalogue';
import type { orders } from '../../db/schema/orders';
import type { IssuedDocument } from '../../invoices/issue';
import type { AppContext } from '../../kernel/context';

export type OrderRow = typeof orders.$inferSelect;
type ToolRow = typeof tools.$inferSelect;

/**
 * What the buyer asks for, as the quote and the payment both take it: the kind is read from which license it names
 * (`kindOfRequest`), the price and the checks from the kind.
 */
export type OrderRequest = {
  toolId?: string;
  currency: Currency;
  seats: number;
  /** "Add seats": the team license, owned by the buyer, that the seats are added to. */
  teamLicenseId?: string;
  /** The edition bought, of a tool with editions (decision 056); for an upgrade, the edition it goes to. */
  editionId?: string;
  /** An upgrade: the buyer's license that moves to a higher edition. */
  upgradeLicenseId?: string;
  /** A renewal: the buyer's license whose updates are renewed for another period. */
  renewLicenseId?: string;
};

/** An order a kind agreed to: the tool it is for, the list price of one seat (GST included) and the seats. */
export type PlannedOrder = {
  tool: ToolRow;
  unitPrice: number;
  seats: number;
  /** The license the order acts on (every kind but a new license). */
  licenseId: string | null;
  /** What the kind fixes now for its settlement and refund (the edition bought); null when nothing. */
  terms: OrderTerms | null;
};

/**
 * What settling a paid order did, inside the fulfilment transaction. `settled`: the purchase the order hangs off,
 * what the 'paid' event records, the line its tax invoice prints, and `deliver`, which queues the kind's mail once
 * the invoice exists. Refused: the
 * order cannot be given (the tool is owned already, the team is gone), and its payment is refunded.
 */
export type Settlement =
  | {
      settled: true;
      purchaseId: string;
      detail: Record<string, unknown>;
      invoiceLine: string;
      /** The license's answers changed (an upgrade): this instance forgets what it remembers once committed. */
      licenseChanged?: boolean;
      deliver: (invoice: IssuedDocument) => Promise<void>;
    }
  | { settled: false; reason: string; detail: Record<string, unknown> };

/**
 * What a refund undid beyond the shared steps: the purchase it ended, if any, the download links it revoked, and,
 * for seats taken back, how many people now hold a seat beyond the ones still paid for (the operator may free them).
 */
export type Undone = {
  purchaseId: string | null;
  downloadLinksRevoked: number;
  seatsBeyondPaid?: SeatsBeyondPaid;
};

export type SeatsBeyondPaid = { teamLicenseId: string; seats: number; used: number };

/**
 * One kind of order (docs/structure.md, "Kinds of order"): who may place it and at what price (`plan`), what paying
 * for it gives and the line its tax invoice prints (`fulfil`), and what refunding it takes back (`undo`). The shared
 * steps (orders/place.ts, settle.ts, refund.ts, quote.ts) do the rest the same for every kind: the coupon, the one
 * pricing function, the gateway, exactly-once settlement, the invoice and credit note, the history and the mail.
 */
export type OrderKind = {
  name: OrderKindName;
  plan(ctx: AppContext, buyer: { id: string }, request: OrderRequest): Promise<PlannedOrder>;
  fulfil(ctx: AppContext, tx: Tx, order: OrderRow, now: Date): Promise<Settlement>;
  /** `settled`: the order was given (a refused one is refunded without anything to take back). */
  undo(ctx: AppContext, tx: Tx, order: OrderRow, settled: boolean, now: Date): Promise<Undone>;
};
