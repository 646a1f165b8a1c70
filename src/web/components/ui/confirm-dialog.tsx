import { useEffect, useId, useRef } from "react";

interface ConfirmDialogProps {
  open: boolean;
  /** The question, which also names the dialog for screen readers. */
  question: string;
  /** What saying yes does, read out with the question. */
  description?: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A question asked in the page (a modal `<dialog>`: focus moves into it and stays there,
 * Escape answers No, the page behind is inert), instead of the browser's `confirm()`.
 */
export function ConfirmDialog({ open, question, description, confirmLabel, cancelLabel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape (the browser closes the dialog) is a No.
      onClose={() => open && onCancel()}
    >
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-bold">
          {question}
        </h2>
        {description && (
          <p id={descriptionId} className="py-2">
            {description}
          </p>
        )}
        <div className="modal-action">
          <button type="button" className="btn" autoFocus onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className="btn btn-error" disabled={busy} onClick={onConfirm}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
