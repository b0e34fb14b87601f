import type { UserDto } from '../../../domain/schemas/auth';
import { splitFullName, type UserSummary } from '../../../domain/schemas/common';
import type { UserRow } from '../../db/schema';

export function toUserDto(row: UserRow): UserDto {
  return {
    ...toUserSummary(row),
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    isActive: row.isActive,
    emailVerified: row.emailVerified,
  };
}

export function toUserSummary(row: { id: string; email: string; fullName: string; avatarUrl: string | null }): UserSummary {
  return {
    id: row.id,
    email: row.email,
    fullName: row.fullName,
    ...splitFullName(row.fullName),
    avatar: row.avatarUrl,
  };
}
