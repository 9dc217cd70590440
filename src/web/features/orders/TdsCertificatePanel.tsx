import { FileText } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { formatSubunits } from '../../../shared/money';
import type { OrderDetail, OrderTdsCertificate } from '../../../shared/order-detail';
import { TDS_RATE_PERCENT, TDS_SECTION } from '../../../shared/proforma';
import { FormError, PrimaryButton } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { ApiError } from '../../lib/api';
import { ordersApi } from './api';
import { Fact, Panel, when } from './Panel';

const CHOOSE = 'Choose the Form 16A PDF to upload.';

/**
 * The TDS the buyer deducts from an order (issue 68) and its certificate: the PAN and amount, the Form 16A once
 * uploaded (and whether the firm has checked it), and, while it may still be given, the upload of its PDF.
 */
export function TdsCertificatePanel({
  order,
  tds,
  onChanged,
}: {
  order: OrderDetail;
  tds: OrderTdsCertificate;
  onChanged: () => void;
}) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const { run, busy, error, fail } = useAction((failure) =>
    failure instanceof ApiError
      ? (failure.body?.fieldErrors?.file ?? failure.serverMessage ?? 'The file could not be uploaded.')
      : 'The file could not be uploaded.',
  );
  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      fail(CHOOSE);
      document.getElementById(inputId)?.focus();
      return;
    }
    const done = await run(async () => (await ordersApi.uploadTdsCertificate(order.id, file)).message);
    if (done) {
      setFile(null);
      onChanged();
    }
  };
  const certificate = tds.certificate;
  return (
    <Panel title="TDS and Form 16A">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Fact
          label={`TDS, s. ${TDS_SECTION} (${TDS_RATE_PERCENT} %)`}
          value={formatSubunits(order.tds, order.currency)}
        />
        <Fact label="PAN" value={tds.pan} mono />
        <Fact
          label="Form 16A"
          value={
            certificate ? (certificate.checked ? 'Received and checked' : 'Received') : 'Not received yet'
          }
        />
      </dl>
      {certificate && (
        <a
          href={certificate.url}
          download
          className="mt-4 inline-flex min-h-6 items-center gap-1.5 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
        >
          <Icon node={FileText} className="size-4 shrink-0" />
          {certificate.fileName}
          <span className="sr-only">, uploaded {when(certificate.uploadedAt)}</span>
        </a>
      )}
      {tds.canUpload && (
        <form noValidate onSubmit={upload} className="mt-5 space-y-3">
          <p className="text-sm text-slate-700">
            Once you have deposited the TDS, upload the Form 16A you issue for it (a PDF of at most 5 MB).
          </p>
          <div>
            <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
              {certificate ? 'Replace Form 16A (PDF)' : 'Form 16A (PDF)'}
            </label>
            <input
              id={inputId}
              type="file"
              accept="application/pdf,.pdf"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              className="block w-full rounded-lg text-sm text-slate-700 file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:font-semibold file:text-brand-800"
            />
          </div>
          <div id={`${inputId}-error`}>
            <FormError message={error} />
          </div>
          <PrimaryButton size="inline" busy={busy} busyLabel="Uploading…">
            Upload Form 16A
          </PrimaryButton>
        </form>
      )}
    </Panel>
  );
}
