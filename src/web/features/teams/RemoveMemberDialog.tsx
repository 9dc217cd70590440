import { useEffect, useRef } from 'react';
import { Button, FormError, SecondaryButton } from '../../components/form';
import { Modal } from '../../components/Modal';
import type { TeamMember } from './MemberList';

/** "Remove {name}?": taking a member's seat back, confirmed; open while `member` is set. */
export function RemoveMemberDialog({
  member,
  busy,
  error,
  onCancel,
  onConfirm,
  returnFocus,
}: {
  member: TeamMember | null;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const confirmRef = useRef<HTMLDivElement>(null);
  // The confirmation starts on Cancel, the safe choice (as a device's Deactivate does).
  useEffect(() => {
    if (member) confirmRef.current?.querySelector<HTMLElement>('[data-cancel]')?.focus();
  }, [member]);
  return (
    <Modal
      open={member !== null}
      onClose={onCancel}
      title={member ? `Remove ${member.name}?` : ''}
      returnFocus={returnFocus}
    >
      <p className="text-sm text-slate-700">
        {member?.name} ({member?.email}) loses the seat at once: their key stops working on every device, and
        the seat is free to give to someone else.
      </p>
      <FormError message={error} />
      <div ref={confirmRef} className="mt-5 flex flex-col justify-end gap-3 md:flex-row">
        <SecondaryButton cancel onClick={onCancel}>
          Cancel
        </SecondaryButton>
        <Button variant="danger" busy={busy} onClick={onConfirm}>
          Remove
        </Button>
      </div>
    </Modal>
  );
}
