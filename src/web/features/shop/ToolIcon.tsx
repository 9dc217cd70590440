import { FileText, Laptop, Monitor } from 'lucide-react';
import type { Device } from '../../../shared/shop';

/**
 * A tool's picture: its own image when the catalogue gives a same-site path, else a device icon.
 * Always decorative — the tool's name sits right next to it.
 */
export function ToolIcon({
  icon,
  device,
  className = 'size-6',
}: {
  icon?: string | null;
  device?: Device | null;
  className?: string;
}) {
  if (icon?.startsWith('/')) {
    return <img src={icon} alt="" width={24} height={24} className={className} />;
  }
  const hint = `${device ?? ''} ${icon ?? ''}`.toLowerCase();
  if (hint.includes('windows')) return <Monitor className={className} aria-hidden="true" />;
  if (hint.includes('mac') || hint.includes('apple'))
    return <Laptop className={className} aria-hidden="true" />;
  return <FileText className={className} aria-hidden="true" />;
}
