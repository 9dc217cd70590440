import { Notice } from '../../components/form/Notice';

/** The secret, shown once: after an endpoint is added or its secret rotated. */
export function SecretOnce({ secret, url }: { secret: string; url: string }) {
  return (
    <Notice tone="success">
      <span className="block">
        The secret of {url}. Copy it into the receiver now: it is not shown again.
      </span>
      <code className="mt-2 block rounded-md bg-white px-2 py-1.5 font-mono text-sm break-all text-slate-900 select-all">
        {secret}
      </code>
    </Notice>
  );
}
