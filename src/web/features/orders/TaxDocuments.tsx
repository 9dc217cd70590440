import { FileText } from 'lucide';
import type { OrderDetail } from '../../../shared/order-detail';
import { Icon } from '../../components/Icon';
import { Panel, when } from './Panel';

/** The order's invoices and credit notes, each with when it was issued and what cancelled it. */
export function TaxDocuments({ documents }: { documents: OrderDetail['documents'] }) {
  return (
    <Panel title="Tax documents">
      {documents.length === 0 ? (
        <p className="text-sm text-slate-600">No tax documents for this order.</p>
      ) : (
        <ul className="space-y-2">
          {documents.map((doc) => (
            <li key={`${doc.kind}-${doc.number}`}>
              <a
                href={doc.url}
                download
                className="inline-flex min-h-6 items-center gap-1.5 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
              >
                <Icon node={FileText} className="size-4 shrink-0" />
                {doc.kind === 'invoice' ? 'Invoice' : 'Credit note'} {doc.number}
              </a>
              <span className="block pl-5 text-xs text-slate-600">{when(doc.issuedAt)}</span>
              {doc.cancelledBy && (
                <span className="block pl-5 text-xs text-slate-700">
                  Cancelled by credit note {doc.cancelledBy}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
