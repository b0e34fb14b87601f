// The users module's public surface (it has no service: the accounts' reads and writes, and their DTOs).
export { toUserDto, toUserSummary } from './users.mapper';
export {
  createOne,
  getOneByEmail,
  getOneById,
  getPasswordHash,
  getWithPasswordByEmail,
  markEmailVerified,
  setPassword,
  setRoleByEmail,
  touchLastSeen,
} from './users.repo';
