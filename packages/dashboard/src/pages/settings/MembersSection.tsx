// Team members and roles (product.md §3): owners change everything, editors build experiences
// and audiences, viewers read. Only owners see this list (the service answers 403 to others).
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { Member, MemberInput, Role } from "@storefit/contract";
import { useAddMember, useChangeMemberRole, useMembers, useRemoveMember } from "../../api/account";
import { DataTable } from "../../components/DataTable";
import { useSignedInSession } from "../../components/RequireSession";
import { EmptyState } from "../../components/StatusMessage";
import { type Column, Table } from "../../components/Table";
import { FieldError, Form, FormError, Select, SubmitButton, TextInput } from "../../components/form";
import { ConfirmCell } from "./ConfirmCell";

export const ROLES: readonly { value: Role; label: string }[] = [
  { value: "owner", label: "Owner — everything, including settings, team and keys" },
  { value: "editor", label: "Editor — experiences and audiences" },
  { value: "viewer", label: "Viewer — read only" },
];

const ROLE_NAMES: Record<Role, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function MembersSection() {
  const members = useMembers(true);
  return (
    <section className="panel settings-section" id="members" aria-labelledby="members-title">
      <h2 className="panel__title" id="members-title">
        Team members
      </h2>
      <p className="panel__description">Who can sign in to this account, and what they may do. A removed member is signed out at once.</p>
      <DataTable query={members} noun="team members" isEmpty={(d) => d.members.length === 0} empty={<EmptyState title="No members" />}>
        {(data) => <MembersTable members={data.members} />}
      </DataTable>
      <AddMemberForm />
    </section>
  );
}

function RoleCell({ member }: { member: Member }) {
  const id = useId();
  const change = useChangeMemberRole();
  return (
    <div className="inline-control">
      <label htmlFor={id} className="visually-hidden">
        Role of {member.email}
      </label>
      <select
        id={id}
        className="field__input field__input--inline"
        value={member.role}
        disabled={change.isPending}
        onChange={(e) => change.mutate({ id: member.id, patch: { role: e.target.value as Role } })}
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {ROLE_NAMES[r.value]}
          </option>
        ))}
      </select>
      {change.isError ? <FieldError alert>{change.error.message}</FieldError> : null}
    </div>
  );
}

function RemoveCell({ member }: { member: Member }) {
  const remove = useRemoveMember();
  const { user } = useSignedInSession();
  if (member.id === user.id) return <span className="muted">You</span>;
  return <ConfirmCell verb="Remove" target={member.email} onConfirm={() => remove.mutate(member.id)} pending={remove.isPending} error={remove.error} />;
}

const columns: readonly Column<Member>[] = [
  { key: "email", header: "Email", cell: (m) => <span className="cell-strong">{m.email}</span> },
  { key: "role", header: "Role", cell: (m) => <RoleCell member={m} /> },
  { key: "remove", header: "Access", cell: (m) => <RemoveCell member={m} /> },
];

function MembersTable({ members }: { members: readonly Member[] }) {
  return <Table caption="Team members" columns={columns} rows={members} rowKey={(m) => m.id} rowProps={() => ({ "data-testid": "member-row" })} />;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function AddMemberForm() {
  const add = useAddMember();
  const form = useForm<MemberInput>({ defaultValues: { email: "", password: "", role: "editor" }, mode: "onTouched" });
  const save = (values: MemberInput) => add.mutate({ ...values, email: values.email.trim() }, { onSuccess: () => form.reset() });
  return (
    <Form form={form} onSubmit={save} className="subform" aria-labelledby="add-member-title">
      <h3 className="settings-subtitle" id="add-member-title">
        Add a member
      </h3>
      <div className="settings-grid">
        <TextInput control={form.control} name="email" type="email" label="Email" autoComplete="off" rules={{ validate: (v) => (EMAIL.test(v.trim()) ? true : "Enter an email address.") }} />
        <TextInput
          control={form.control}
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          hint="At least 10 characters; share it with them privately."
          rules={{ validate: (v) => (v.length >= 10 ? true : "At least 10 characters.") }}
        />
        <Select control={form.control} name="role" label="Role" options={ROLES} />
      </div>
      <div className="form-actions">
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add member
        </SubmitButton>
        <span role="status" className="settings-status">
          {add.isSuccess ? `Added ${add.data.email} as ${ROLE_NAMES[add.data.role].toLowerCase()}.` : null}
        </span>
      </div>
      {add.isError ? <FormError>Could not add the member: {add.error.message}</FormError> : null}
    </Form>
  );
}
