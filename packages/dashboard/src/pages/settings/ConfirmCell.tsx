// A destructive action in a table row, asked twice: "Remove…" shows the real button ("Remove
// ann@shop.example") beside "Keep"; the service's refusal is announced in the row.
import { useState } from "react";
import { FieldError } from "../../components/form";

export function ConfirmCell({
  verb,
  target,
  onConfirm,
  pending,
  error,
}: {
  /** "Remove", "Revoke". */
  verb: string;
  /** What it acts on, as the operator knows it (an email, a key's name). */
  target: string;
  onConfirm: () => void;
  pending: boolean;
  error: Error | null;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="inline-control">
      {confirming ? (
        <>
          <button type="button" className="button button--danger button--small" onClick={onConfirm} disabled={pending}>
            {verb} {target}
          </button>
          <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </>
      ) : (
        <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(true)} aria-label={`${verb} ${target}…`}>
          {verb}…
        </button>
      )}
      <FieldError alert>{error?.message}</FieldError>
    </div>
  );
}
