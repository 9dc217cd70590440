import { FileText, Laptop, Monitor } from 'lucide';
import type { Device } from '../../../shared/shop';
import { Icon } from '../Icon';

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
  if (hint.includes('windows')) return <Icon node={Monitor} className={className} />;
  if (hint.includes('mac') || hint.includes('apple')) return <Icon node={Laptop} className={className} />;
  return <Icon node={FileText} className={className} />;
}
