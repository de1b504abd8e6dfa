import { useTranslation } from "react-i18next";
import { Modal } from "./Modal.js";

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before something that cannot be undone; the destructive button is never the default. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onClose={onCancel}
      testId="confirm-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} autoFocus data-testid="confirm-cancel">
            {t("common.cancel")}
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} data-testid="confirm-ok">
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="confirm-message">{message}</p>
    </Modal>
  );
}
