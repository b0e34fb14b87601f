// The transfer module's public surface: its service, and the CLI's export command.
export { EXPORT_USAGE, exportTeamCommand } from './transfer.cli';
export { TransferService } from './transfer.service';
