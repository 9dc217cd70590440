import {
  ArrowDown as arrowDown,
  ArrowLeft as arrowLeft,
  ArrowUp as arrowUp,
  ArrowUpDown as arrowUpDown,
  Check as check,
  ChevronLeft as chevronLeft,
  ChevronRight as chevronRight,
  Download as download,
  Inbox as inbox,
  LogOut as logOut,
  MailWarning as mailWarning,
  Plus as plus,
  Reply as reply,
  RotateCw as rotateCw,
  ShieldCheck as shieldCheck,
} from 'lucide';
import type { SVGProps } from 'react';
import { Icon } from '../../components/Icon';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'aria-hidden'>;

/** The dashboard's icons, drawn by the site's `Icon` from Lucide's data; each sits beside a text that says what it means. */
export const ArrowDown = (props: IconProps) => <Icon node={arrowDown} {...props} />;
export const ArrowLeft = (props: IconProps) => <Icon node={arrowLeft} {...props} />;
export const ArrowUp = (props: IconProps) => <Icon node={arrowUp} {...props} />;
export const ArrowUpDown = (props: IconProps) => <Icon node={arrowUpDown} {...props} />;
export const Check = (props: IconProps) => <Icon node={check} {...props} />;
export const ChevronLeft = (props: IconProps) => <Icon node={chevronLeft} {...props} />;
export const ChevronRight = (props: IconProps) => <Icon node={chevronRight} {...props} />;
export const Download = (props: IconProps) => <Icon node={download} {...props} />;
export const Inbox = (props: IconProps) => <Icon node={inbox} {...props} />;
export const LogOut = (props: IconProps) => <Icon node={logOut} {...props} />;
export const MailWarning = (props: IconProps) => <Icon node={mailWarning} {...props} />;
export const Plus = (props: IconProps) => <Icon node={plus} {...props} />;
export const Reply = (props: IconProps) => <Icon node={reply} {...props} />;
export const RotateCw = (props: IconProps) => <Icon node={rotateCw} {...props} />;
export const ShieldCheck = (props: IconProps) => <Icon node={shieldCheck} {...props} />;
