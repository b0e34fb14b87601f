import { format } from 'date-fns';
import { UserCheck, UserX } from 'lucide-react';
import { humanizeRole } from '../../../../domain/constants';
import type { AdminUserDto } from '../../../../domain/schemas/admin';
import { Badge } from '../../../components/ui/misc';
import { Button } from '../../../components/ui/button';

export interface UsersTableProps {
  users: AdminUserDto[];
  currentUserId: string | undefined;
  onToggle: (user: AdminUserDto) => void;
  caption: string;
}

export function UsersTable({ users, currentUserId, onToggle, caption }: UsersTableProps) {
  return (
    <div className="-mx-4 overflow-x-auto sm:mx-0">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Email</th>
            <th scope="col" className="px-4 py-2 font-medium">Role</th>
            <th scope="col" className="px-4 py-2 font-medium">Status</th>
            <th scope="col" className="px-4 py-2 font-medium">Joined</th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {users.map((user) => {
            const isSelf = user.id === currentUserId;
            return (
              <tr key={user.id}>
                <td className="px-4 py-3 font-medium text-slate-900 dark:text-slate-100">{user.fullName}</td>
                <td className="max-w-[16rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300">{user.email}</td>
                <td className="px-4 py-3">
                  <Badge tone={user.role === 'super_admin' ? 'primary' : 'secondary'} className="capitalize">
                    {humanizeRole(user.role)}
                  </Badge>
                </td>
                <td className="px-4 py-3">
                  <Badge tone={user.isActive ? 'success' : 'danger'}>{user.isActive ? 'Active' : 'Inactive'}</Badge>
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-300">
                  <time dateTime={user.createdAt}>{format(new Date(user.createdAt), 'MMM dd, yyyy')}</time>
                </td>
                <td className="px-4 py-3 text-right">
                  {isSelf ? (
                    <span className="text-xs text-slate-500 dark:text-slate-400">You</span>
                  ) : (
                    <Button
                      size="sm"
                      variant={user.isActive ? 'secondary' : 'primary'}
                      onClick={() => onToggle(user)}
                      aria-label={`${user.isActive ? 'Deactivate' : 'Reactivate'} ${user.fullName}`}
                    >
                      {user.isActive ? <UserX className="h-4 w-4" aria-hidden /> : <UserCheck className="h-4 w-4" aria-hidden />}
                      {user.isActive ? 'Deactivate' : 'Reactivate'}
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
