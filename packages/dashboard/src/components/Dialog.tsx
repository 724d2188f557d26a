// A modal dialog on the browser's own <dialog>: showModal() gives the dialog role, keeps focus
// inside, makes the rest of the page inert and closes on Escape (the "cancel" event).
import { useEffect, useId, useRef } from "react";
import type { ReactNode } from "react";

export function Dialog({
  title,
  children,
  onClose,
  role = "dialog",
  testId,
}: {
  /** The dialog's accessible name and visible heading. */
  title: string;
  children: ReactNode;
  /** Escape or a "Cancel" button: the owner stops rendering the dialog. */
  onClose: () => void;
  role?: "dialog" | "alertdialog";
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role === "alertdialog" ? "alertdialog" : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 className="dialog__title" id={titleId}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
