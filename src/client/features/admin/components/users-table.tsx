import { format } from 'date-fns';
import { UserCheck, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { humanizeRole } from '../../../../domain/constants';
import type { AdminUserDto } from '../../../../domain/schemas/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ColumnHeaders } from '../../../components/ui/column-headers';

export interface UsersTableProps {
  users: AdminUserDto[];
  currentUserId: string | undefined;
  onToggle: (user: AdminUserDto) => void;
  caption: string;
}

function RoleBadge({ user }: { user: AdminUserDto }) {
  return (
    <Badge tone={user.role === 'super_admin' ? 'primary' : 'secondary'} className="whitespace-nowrap capitalize">
      {humanizeRole(user.role)}
    </Badge>
  );
}

function StatusBadge({ user }: { user: AdminUserDto }) {
  return (
    <Badge tone={user.isActive ? 'success' : 'danger'} className="whitespace-nowrap">
      {user.isActive ? 'Active' : 'Inactive'}
    </Badge>
  );
}

function Joined({ user }: { user: AdminUserDto }) {
  return <time dateTime={user.createdAt}>{format(new Date(user.createdAt), 'MMM dd, yyyy')}</time>;
}

function ToggleAction({ user, isSelf, onToggle }: { user: AdminUserDto; isSelf: boolean; onToggle: (u: AdminUserDto) => void }) {
  if (isSelf) return <span className="text-xs text-slate-500 dark:text-slate-400">You</span>;
  return (
    <Button
      size="sm"
      variant={user.isActive ? 'secondary' : 'primary'}
      onClick={() => onToggle(user)}
      aria-label={`${user.isActive ? 'Deactivate' : 'Reactivate'} ${user.fullName}`}
    >
      {user.isActive ? <UserX className="h-4 w-4" aria-hidden /> : <UserCheck className="h-4 w-4" aria-hidden />}
      {user.isActive ? 'Deactivate' : 'Reactivate'}
    </Button>
  );
}

interface LayoutProps {
  users: AdminUserDto[];
  caption: string;
  /** A user's (de)activate button, or 'You' on the caller's own row. */
  action: (user: AdminUserDto) => ReactNode;
}

/** A table on wider screens, a stacked list on phones. */
const COLUMNS = ['Name', 'Email', 'Role', 'Status', 'Joined'];

export function UsersTable({ users, currentUserId, onToggle, caption }: UsersTableProps) {
  const action = (user: AdminUserDto) => <ToggleAction user={user} isSelf={user.id === currentUserId} onToggle={onToggle} />;
  return (
    <>
      <UsersList users={users} caption={caption} action={action} />
      <UsersGrid users={users} caption={caption} action={action} />
    </>
  );
}

function UsersList({ users, caption, action }: LayoutProps) {
  return (
    <ul className="divide-y divide-slate-100 sm:hidden dark:divide-slate-800" aria-label={caption}>
      {users.map((user) => (
        <li key={user.id} className="flex items-start justify-between gap-3 py-3">
          <div className="min-w-0 space-y-1">
            <p className="font-medium text-slate-900 dark:text-slate-100">{user.fullName}</p>
            <p className="truncate text-sm text-slate-700 dark:text-slate-300">{user.email}</p>
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
              <RoleBadge user={user} />
              <StatusBadge user={user} />
              <span>
                Joined <Joined user={user} />
              </span>
            </div>
          </div>
          <div className="shrink-0">{action(user)}</div>
        </li>
      ))}
    </ul>
  );
}

function UsersGrid({ users, caption, action }: LayoutProps) {
  return (
    <div className="hidden overflow-x-auto sm:block">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <tr>
            <ColumnHeaders labels={COLUMNS} className="px-4 py-2 font-medium" />
            <th scope="col" className="px-4 py-2 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {users.map((user) => (
            <tr key={user.id}>
              <td className="px-4 py-3 font-medium text-slate-900 dark:text-slate-100">{user.fullName}</td>
              <td className="max-w-[16rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300" title={user.email}>
                {user.email}
              </td>
              <td className="px-4 py-3">
                <RoleBadge user={user} />
              </td>
              <td className="px-4 py-3">
                <StatusBadge user={user} />
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-300">
                <Joined user={user} />
              </td>
              <td className="px-4 py-3 text-right">{action(user)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
