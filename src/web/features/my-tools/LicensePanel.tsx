import { Check, Copy } from 'lucide';
import { useEffect, useId, useRef, useState } from 'react';
import { LICENSE_MESSAGES, type MyLicense } from '../../../shared/licenses';
import { Notice } from '../../components/form/Notice';
import { Icon } from '../../components/Icon';
import { announce, focusLost } from '../../lib/announce';
import { DeviceRow } from './DeviceRow';
import { OfflineDisclosure } from './OfflineActions';
import type { LicensesState } from './useLicenses';

/**
 * Copies a value and says so: on the button for two seconds and once through the live region. A copy the browser
 * refuses (no clipboard permission) says so beside the key, which can then be selected and copied by hand.
 */
function CopyButton({ value, label, what }: { value: string; label: string; what: string }) {
  const [copied, setCopied] = useState<boolean | 'failed'>(false);
  useEffect(() => {
    if (copied !== true) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => {
        setCopied(true);
        announce(`${what} copied`);
      },
      () => {
        setCopied('failed');
        announce(copyFailedText(what));
      },
    );
  return (
    <>
      <button
        type="button"
        aria-label={copied === true ? 'Copied' : label}
        onClick={() => void copy()}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-brand-800 transition-colors hover:bg-slate-100"
      >
        {copied === true ? <Icon node={Check} className="size-4" /> : <Icon node={Copy} className="size-4" />}
      </button>
      {copied === 'failed' && <p className="w-full text-sm text-red-700">{copyFailedText(what)}</p>}
    </>
  );
}

const copyFailedText = (what: string) =>
  `Could not copy the ${what.toLowerCase()}: select it and copy it yourself.`;

/** A license's key (or a credentials tool's username) with its copy button. */
export function LicenseSecret({ license, title }: { license: MyLicense; title: string }) {
  const secret = license.licenseKey ?? license.username;
  if (!secret) return null;
  const what = license.licenseKey ? 'License key' : 'Username';
  return (
    <>
      <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{what}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900">{secret}</code>
        <CopyButton value={secret} label={`Copy ${what.toLowerCase()}: ${title}`} what={what} />
      </div>
    </>
  );
}

/**
 * The license of one purchased tool on My Tools: the key, its status, the devices it runs on, and activating a
 * computer without internet (not for a floating tool, whose seats are leases renewed online).
 */
export function LicensePanel({
  license,
  toolName,
  title,
  state,
}: {
  license: MyLicense;
  toolName: string;
  /** The tool as the card shows it: the panel is "License of PDF Utility Toolkit (Windows)", told apart (issue 63). */
  title: string;
  state: LicensesState;
}) {
  const devicesId = useId();
  const panelRef = useRef<HTMLElement>(null);
  // A deactivated device's row goes, and its focused button with it: focus stays in this license's panel.
  const deviceCount = useRef(license.devices.length);
  useEffect(() => {
    const fewer = license.devices.length < deviceCount.current;
    deviceCount.current = license.devices.length;
    if (fewer && focusLost()) panelRef.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, [license.devices.length]);
  return (
    <section
      ref={panelRef}
      aria-label={`License of ${title}`}
      className="mb-6 rounded-xl border border-slate-200 bg-slate-50 p-4"
    >
      <LicenseSecret license={license} title={title} />
      {license.status !== 'active' && (
        <div className="mt-3">
          <Notice tone="error">
            {license.status === 'revoked'
              ? LICENSE_MESSAGES.licenseRevoked
              : license.suspendedReason
                ? LICENSE_MESSAGES.suspendedByFirm(license.suspendedReason)
                : LICENSE_MESSAGES.licenseSuspended}
          </Notice>
        </div>
      )}
      <div className="mt-4 flex items-baseline justify-between gap-3">
        <h4 id={devicesId} className="text-sm font-semibold text-brand-900">
          Devices
        </h4>
        <p className="text-xs text-slate-600">
          {license.devices.length} of {license.activationLimit} devices
        </p>
      </div>
      {license.devices.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          No device yet: enter the key in the tool to activate it.
        </p>
      ) : (
        <ul aria-labelledby={devicesId} className="mt-2 divide-y divide-slate-200">
          {license.devices.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              deactivationsLeft={license.selfDeactivationsLeft}
              licenseId={license.licenseId}
              deactivating={state.isDeactivating(device.id)}
              onDeactivate={() => state.deactivate(device.id)}
              onFreedWithCode={state.reload}
              canDownload={license.status === 'active'}
            />
          ))}
        </ul>
      )}
      {license.status === 'active' && license.offlineDays !== null && (
        <div className="mt-3 flex flex-wrap gap-2">
          <OfflineDisclosure
            label="Activate a computer without internet"
            form={{
              kind: 'activate',
              licenseId: license.licenseId,
              toolName,
              offlineDays: license.offlineDays,
              onDone: state.reload,
            }}
          />
        </div>
      )}
    </section>
  );
}
