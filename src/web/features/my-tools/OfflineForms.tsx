import { FileDown, KeyRound, WifiOff } from 'lucide';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import type { LicenseFile, LicenseFilePayload } from '../../../shared/licenses';
import {
  licenseFileName,
  normaliseDeactivationCode,
  OFFLINE_MESSAGES,
  OFFLINE_REQUEST_MAX_CHARS,
} from '../../../shared/offline-activation';
import type { StatusResponse } from '../../../shared/shop';
import { quietSmallButton, SecondaryButton, smallButton } from '../../components/form/buttons';
import { TextAreaField, TextField } from '../../components/form/field';
import { FormError, Notice } from '../../components/form/Notice';
import { useForm } from '../../components/form/useForm';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/ToastHost';
import { announce } from '../../lib/announce';
import { ApiError, api } from '../../lib/api';
import { formatDate } from '../../lib/dates';

/**
 * My Tools' forms for computers without internet (issue 67, decision 061), loaded when a buyer opens one
 * (OfflineActions.tsx): the activation request in, the response file out; and a deactivation code in, the seat freed.
 */

/** The calls of these forms, here rather than in api.ts: they load with the forms, not with My Tools. */
const offlineApi = {
  activate: (licenseId: string, request: string) =>
    api.post<LicenseFile>(`/api/my-licenses/${encodeURIComponent(licenseId)}/offline-activations`, {
      request,
    }),
  freeWithCode: (licenseId: string, code: string) =>
    api.post<StatusResponse & { selfDeactivationsLeft: number }>(
      `/api/my-licenses/${encodeURIComponent(licenseId)}/offline-deactivations`,
      { code },
    ),
};

/** A request file is one line; anything much larger is another file chosen by mistake. */
const REQUEST_FILE_MAX_BYTES = 4096;

const primarySmallButton = `${smallButton} border-brand-800 bg-brand-800 text-white hover:bg-brand-700`;

/** The failure in the buyer's words: the server's (a full license, another tool's request), else a retry. */
const explained = (failure: unknown) =>
  (failure instanceof ApiError && failure.status < 500 && failure.serverMessage) ||
  'The shop could not be reached. Please try again.';

/** The response as the browser saves it: the signed file's JSON, as a file to download. */
function responseDownload(file: LicenseFile): { url: string; endsAt: string } {
  const text = JSON.stringify(file);
  const payload = JSON.parse(
    new TextDecoder().decode(Uint8Array.from(atob(file.payload), (character) => character.charCodeAt(0))),
  ) as LicenseFilePayload;
  return {
    url: URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' })),
    endsAt: payload.refreshBefore,
  };
}

/**
 * "Activate a computer without internet": the request pasted or read from its file, sent to the shop, and the
 * response file offered to save. The seat is taken then; the device list shows the computer as offline.
 */
function OfflineActivationForm({
  licenseId,
  toolName,
  offlineDays,
  onDone,
  onClose,
}: {
  licenseId: string;
  toolName: string;
  offlineDays: number;
  onDone: () => void;
  onClose: () => void;
}) {
  const prefix = useId();
  const requestId = `${prefix}-request`;
  const fileId = `${prefix}-file`;
  const form = useForm({ initial: { request: '' }, fields: ['request'] as const, idOf: () => requestId });
  const [response, setResponse] = useState<{ url: string; endsAt: string } | null>(null);
  const downloadRef = useRef<HTMLAnchorElement>(null);

  // Opened to be used: the request field takes focus, and the saved response its link.
  useEffect(() => {
    (response ? downloadRef.current : document.getElementById(requestId))?.focus();
  }, [response, requestId]);
  useEffect(() => () => (response ? URL.revokeObjectURL(response.url) : undefined), [response]);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    if (chosen.size > REQUEST_FILE_MAX_BYTES) {
      form.setErrors({ request: OFFLINE_MESSAGES.requestNotOne });
      return;
    }
    form.set('request', (await chosen.text()).trim());
    announce(`The request in ${chosen.name} is in the field.`);
  };

  const send = form.submit({
    validate: ({ request }) => (request.trim() ? {} : { request: OFFLINE_MESSAGES.requestRequired }),
    send: async ({ request }) => {
      const file = await offlineApi.activate(licenseId, request.trim());
      setResponse(responseDownload(file));
      onDone();
    },
    explain: (failure, onFields) => (onFields ? null : explained(failure)),
  });

  if (response) {
    return (
      <div className="mt-3 space-y-3">
        <Notice tone="success">
          The computer is activated without internet until {formatDate(response.endsAt)}. Save the response
          file and load it into the tool on that computer.
        </Notice>
        <div className="flex flex-wrap gap-2">
          <a
            ref={downloadRef}
            href={response.url}
            download={licenseFileName(toolName, 'activation-response')}
            className={primarySmallButton}
          >
            <Icon node={FileDown} className="size-4" />
            Download the response file
          </a>
          <SecondaryButton onClick={onClose}>Done</SecondaryButton>
        </div>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={send}
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-white p-3"
    >
      <p className="text-sm text-slate-700">
        In the tool on that computer, choose to activate without internet: it shows a request and can save it
        as a file. Bring it here, and take the response file back. It works for {offlineDays} days (a trial's
        until the trial ends) and takes one of this license's devices; a refund or suspension cannot reach
        that computer before its file ends.
      </p>
      <TextAreaField
        {...form.field('request')}
        label="Activation request"
        rows={3}
        maxLength={OFFLINE_REQUEST_MAX_CHARS + 100}
        spellCheck={false}
        autoComplete="off"
        hint="Paste the whole line, starting with PCA-OFFLINE-1."
      />
      <div>
        <label htmlFor={fileId} className="mb-1.5 block text-sm font-medium text-slate-800">
          Or choose the request file
        </label>
        <input
          id={fileId}
          type="file"
          accept=".txt,text/plain"
          onChange={(event) => void readFile(event)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:text-sm file:font-semibold file:text-brand-800"
        />
      </div>
      <FormError message={form.formError} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" aria-disabled={form.busy ? true : undefined} className={primarySmallButton}>
          <Icon node={WifiOff} className="size-4" />
          {form.busy ? 'Activating...' : 'Get the response file'}
        </button>
        <button type="button" onClick={onClose} className={quietSmallButton}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * A computer activated without internet, freed with the code its tool showed when its license was removed: the
 * seat is free, and the monthly allowance of freed devices is not used.
 */
function DeactivationCodeForm({
  licenseId,
  deviceName,
  onDone,
  onClose,
}: {
  licenseId: string;
  deviceName: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const codeId = `${useId()}-code`;
  const form = useForm({ initial: { code: '' }, fields: ['code'] as const, idOf: () => codeId });
  useEffect(() => {
    document.getElementById(codeId)?.focus();
  }, [codeId]);

  const send = form.submit({
    validate: ({ code }) =>
      !code.trim()
        ? { code: OFFLINE_MESSAGES.codeRequired }
        : normaliseDeactivationCode(code)
          ? {}
          : { code: OFFLINE_MESSAGES.codeMalformed },
    send: async ({ code }) => {
      const freed = await offlineApi.freeWithCode(licenseId, code.trim());
      toast.success(freed.message);
      onDone();
    },
    explain: (failure, onFields) => (onFields ? null : explained(failure)),
  });

  return (
    <form
      noValidate
      onSubmit={send}
      aria-label={`Free ${deviceName} with its deactivation code`}
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-white p-3"
    >
      <TextField
        {...form.field('code')}
        label="Deactivation code"
        autoComplete="off"
        spellCheck={false}
        placeholder="XXXX-XXXX-XXXX-XXXX"
        inputClassName="font-mono uppercase"
        hint="The code the tool showed when you removed its license. It does not count against your monthly deactivations."
      />
      <FormError message={form.formError} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" aria-disabled={form.busy ? true : undefined} className={primarySmallButton}>
          <Icon node={KeyRound} className="size-4" />
          {form.busy ? 'Freeing...' : 'Free the seat'}
        </button>
        <button type="button" onClick={onClose} className={quietSmallButton}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What opens a form: a computer's activation (`activate`) or a deactivation code (`code`); `onDone` reloads. */
export type OfflineFormProps =
  | ({ kind: 'activate' } & Parameters<typeof OfflineActivationForm>[0])
  | ({ kind: 'code' } & Parameters<typeof DeactivationCodeForm>[0]);

/** The one export My Tools loads on demand (OfflineActions.tsx). */
export default function OfflineForm(props: OfflineFormProps) {
  return props.kind === 'activate' ? (
    <OfflineActivationForm {...props} />
  ) : (
    <DeactivationCodeForm {...props} />
  );
}
