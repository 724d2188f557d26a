// Secret keys for server-to-server calls (product.md §3). The secret is in the creation answer
// only — the service stores its hash — so it is shown once, here, until the operator closes it.
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { SecretKeyCreated, SecretKeyInput, SecretKeyView } from "@storefit/contract";
import { useCreateSecretKey, useRevokeSecretKey, useSecretKeys } from "../../api/account";
import { DataTable } from "../../components/DataTable";
import { EmptyState } from "../../components/StatusMessage";
import { type Column, Table } from "../../components/Table";
import { formatDateTime } from "../../format";
import { Form, FormError, SubmitButton, TextInput } from "../../components/form";
import { ConfirmCell } from "./ConfirmCell";

export function SecretKeysSection() {
  const keys = useSecretKeys(true);
  const create = useCreateSecretKey();
  const form = useForm<SecretKeyInput>({ defaultValues: { name: "" }, mode: "onTouched" });
  const save = (values: SecretKeyInput) => create.mutate({ name: values.name.trim() }, { onSuccess: () => form.reset() });
  return (
    <section className="panel settings-section" id="keys" aria-labelledby="keys-title">
      <h2 className="panel__title" id="keys-title">
        Secret keys
      </h2>
      <p className="panel__description">
        For your servers calling the admin API (<code>Authorization: Bearer sk_…</code>). Never put one in a page: the
        storefront uses the public client key.
      </p>
      {create.data ? <NewSecret created={create.data} onDone={() => create.reset()} /> : null}
      <DataTable query={keys} noun="secret keys" isEmpty={(d) => d.keys.length === 0} empty={<EmptyState title="No secret keys" />}>
        {(data) => <KeysTable keys={data.keys} />}
      </DataTable>
      <Form form={form} onSubmit={save} className="subform" aria-labelledby="create-key-title">
        <h3 className="settings-subtitle" id="create-key-title">
          Create a key
        </h3>
        <div className="settings-grid">
          <TextInput
            control={form.control}
            name="name"
            label="Key name"
            placeholder="e.g. Order sync"
            rules={{ validate: (v) => (v.trim() === "" ? "Name the key, to know later what uses it." : v.length > 200 ? "At most 200 characters." : true) }}
          />
        </div>
        <div className="form-actions">
          <SubmitButton pending={create.isPending} pendingLabel="Creating…">
            Create key
          </SubmitButton>
        </div>
        {create.isError ? <FormError>Could not create the key: {create.error.message}</FormError> : null}
      </Form>
    </section>
  );
}

function NewSecret({ created, onDone }: { created: SecretKeyCreated; onDone: () => void }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="secret-once" role="region" aria-labelledby="secret-once-title">
      <p className="secret-once__title" id="secret-once-title">
        Your new key “{created.name}”. Copy it now: it will not be shown again.
      </p>
      <pre className="code-block" tabIndex={0} aria-label="New secret key">
        <code data-testid="new-secret">{created.secret}</code>
      </pre>
      <div className="form-actions">
        <button type="button" className="button button--secondary button--small" onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" className="button button--primary button--small" onClick={onDone}>
          I have stored it
        </button>
        <span role="status" className="settings-status">
          {copied === "copied" ? "Copied to the clipboard." : copied === "failed" ? "Could not copy: select the key and copy it." : null}
        </span>
      </div>
    </div>
  );
}

function RevokeCell({ k }: { k: SecretKeyView }) {
  const revoke = useRevokeSecretKey();
  return <ConfirmCell verb="Revoke" target={k.name} onConfirm={() => revoke.mutate(k.id)} pending={revoke.isPending} error={revoke.error} />;
}

const columns: readonly Column<SecretKeyView>[] = [
  { key: "name", header: "Name", cell: (k) => <span className="cell-strong">{k.name}</span> },
  { key: "prefix", header: "Starts with", cell: (k) => <span className="mono">{k.prefix}…</span> },
  { key: "created", header: "Created", cell: (k) => <time dateTime={k.created_at}>{formatDateTime(k.created_at)}</time> },
  {
    key: "used",
    header: "Last used",
    cell: (k) => (k.last_used_at ? <time dateTime={k.last_used_at}>{formatDateTime(k.last_used_at)}</time> : <span className="muted">never</span>),
  },
  { key: "revoke", header: "Revoke", cell: (k) => <RevokeCell k={k} /> },
];

function KeysTable({ keys }: { keys: readonly SecretKeyView[] }) {
  return <Table caption="Secret keys" columns={columns} rows={keys} rowKey={(k) => k.id} rowProps={() => ({ "data-testid": "key-row" })} />;
}
