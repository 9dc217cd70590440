import {
  ArrowDown as arrowDown,
  ArrowLeft as arrowLeft,
  ArrowUp as arrowUp,
  ArrowUpDown as arrowUpDown,
  Check as check,
  ChevronLeft as chevronLeft,
  ChevronRight as chevronRight,
  CircleAlert as circleAlert,
  Download as download,
  type IconNode,
  Inbox as inbox,
  LoaderCircle as loaderCircle,
  LogOut as logOut,
  MailWarning as mailWarning,
  Plus as plus,
  Reply as reply,
  RotateCw as rotateCw,
  ShieldCheck as shieldCheck,
} from 'lucide';
import { createElement, type SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'aria-hidden'>;

/**
 * The dashboard's icons: Lucide's drawings (the `lucide` package's data) rendered here. The public pages draw theirs
 * with lucide-react; were the dashboard to import lucide-react too, the bundler would split lucide-react's runtime
 * and the icons both use out of the public pages' chunks into chunks of their own, and every public page would load
 * more, smaller files (docs/performance.md).
 */
// Every icon of the dashboard sits beside a text that says what it means.
function Icon({ node, ...props }: IconProps & { node: IconNode }) {
  return (
    <svg
      aria-hidden="true"
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {node.map(([tag, attributes]) =>
        createElement(tag, { key: JSON.stringify(attributes), ...attributes }),
      )}
    </svg>
  );
}

export const ArrowDown = (props: IconProps) => <Icon node={arrowDown} {...props} />;
export const ArrowLeft = (props: IconProps) => <Icon node={arrowLeft} {...props} />;
export const ArrowUp = (props: IconProps) => <Icon node={arrowUp} {...props} />;
export const ArrowUpDown = (props: IconProps) => <Icon node={arrowUpDown} {...props} />;
export const Check = (props: IconProps) => <Icon node={check} {...props} />;
export const ChevronLeft = (props: IconProps) => <Icon node={chevronLeft} {...props} />;
export const ChevronRight = (props: IconProps) => <Icon node={chevronRight} {...props} />;
export const CircleAlert = (props: IconProps) => <Icon node={circleAlert} {...props} />;
export const Download = (props: IconProps) => <Icon node={download} {...props} />;
export const Inbox = (props: IconProps) => <Icon node={inbox} {...props} />;
export const LoaderCircle = (props: IconProps) => <Icon node={loaderCircle} {...props} />;
export const LogOut = (props: IconProps) => <Icon node={logOut} {...props} />;
export const MailWarning = (props: IconProps) => <Icon node={mailWarning} {...props} />;
export const Plus = (props: IconProps) => <Icon node={plus} {...props} />;
export const Reply = (props: IconProps) => <Icon node={reply} {...props} />;
export const RotateCw = (props: IconProps) => <Icon node={rotateCw} {...props} />;
export const ShieldCheck = (props: IconProps) => <Icon node={shieldCheck} {...props} />;
