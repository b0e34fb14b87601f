// The realtime module's public surface: its service, and the channel between instances.
export { EventChannel, type NoteChannelMessage } from './realtime.channel';
export { RealtimeService } from './realtime.service';
