// Generated from docs/protocol.schema.json by gen-types.mjs: do not edit.

export interface Admin {
  op: AdminOp;
  target?: string;
  token: string;
}

export interface AdminCommand {
  body: Admin;
  name: "admin";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type AdminOp = "connections" | "tables" | "close_table" | "kick" | "damaged" | "stop";

export interface AdminReply {
  connections?: Array<ConnectionInfo>;
  damaged?: Array<DamagedTable>;
  message?: string;
  next?: string | null;
  op: AdminOp;
  tables?: Array<TableInfo>;
  total?: number;
}

export interface AdminReplyCommand {
  body: AdminReply;
  name: "admin_reply";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type AssoPigliaTutto = "off" | "simple" | "traditional";

export interface Bye {
  reason?: string;
}

export interface ByeCommand {
  body: Bye;
  name: "bye";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type CaptureMode = "traditional" | "fewest" | "free";

export interface CardPlayed {
  captured: Array<string>;
  card: string;
  event: number;
  forced?: string | null;
  scopa: boolean;
  seat: number;
  table: Array<string>;
  turn_left_ms?: number | null;
}

export interface CardPlayedCommand {
  body: CardPlayed;
  name: "played";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Chat {
  text: string;
}

export interface ChatCommand {
  body: Chat;
  name: "chat";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface ChatMessage {
  author: string;
  text: string;
}

export interface ChatMessageCommand {
  body: ChatMessage;
  name: "chat_message";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface ClaimName {
  password: string;
}

export interface ClaimNameCommand {
  body: ClaimName;
  name: "claim_name";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface ConnectionInfo {
  id: number;
  name?: string | null;
  peer: string;
  queued_bytes?: number;
  table?: string | null;
  watching?: string | null;
}

export interface CreateTable {
  bot_takeover?: boolean;
  fill_with_bots?: Array<string>;
  no_turn_timer?: boolean;
  options?: { [key: string]: unknown };
  preset?: Preset | null;
  private?: boolean;
  rematch_of?: string | null;
  rules?: WireRules | null;
  sit?: boolean;
  token?: string | null;
  turn_timeout?: number | null;
}

export interface CreateTableCommand {
  body: CreateTable;
  name: "create_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface DamagedTable {
  id: string;
  reason: string;
}

export type DeclarationKind = "under10" | "tris";

export interface DeclarationMade {
  event: number;
  hand: Array<string>;
  kind: DeclarationKind;
  points: number;
  seat: number;
  turn_left_ms?: number | null;
  wild?: number | null;
}

export interface DeclarationMadeCommand {
  body: DeclarationMade;
  name: "declared";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface DeclarationOption {
  kind: DeclarationKind;
  points: number;
  wild?: number | null;
}

export interface DeclaredHand {
  hand: Array<string>;
  seat: number;
}

export type EndReason = "target" | "trentino" | "all_denari" | "abandoned";

export interface Error {
  code: ErrorCode;
  fatal?: boolean;
  message: string;
  retry_after?: number | null;
}

export type ErrorCode = "malformed_frame" | "frame_too_large" | "bad_envelope" | "bad_version" | "unknown_command" | "bad_body" | "unexpected_command" | "not_hello_yet" | "forged_sender" | "name_taken" | "bad_token" | "no_such_table" | "private_table" | "table_full" | "not_at_table" | "already_at_table" | "bad_rules" | "unknown_bot" | "too_many_tables" | "bad_password" | "table_elsewhere" | "game_not_started" | "not_your_turn" | "card_not_in_hand" | "illegal_capture" | "illegal_move" | "illegal_declaration" | "already_waiting" | "not_waiting" | "no_such_tournament" | "bad_settings" | "tournament_started" | "tournament_full" | "already_registered" | "not_registered" | "bad_entrant" | "not_allowed" | "too_few_entrants" | "rate_limited" | "timeout" | "shutting_down" | "unavailable" | "internal";

export interface ErrorCommand {
  body: Error;
  name: "error";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type Forced = "timeout" | "refused";

export type ForcedBy = "timeout" | "refused";

export interface GameEnd {
  event: number;
  leaver?: number | null;
  reason: string;
  totals: Array<number>;
  winner: number | null;
}

export interface GameEndCommand {
  body: GameEnd;
  name: "game_end";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Games {
  games: Array<GameSummary>;
}

export interface GamesCommand {
  body: Games;
  name: "games";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface GameStart {
  event: number;
  rules: WireRules;
  seats: Array<SeatInfo>;
  sides: Array<Array<number>>;
}

export interface GameStartCommand {
  body: GameStart;
  name: "game_start";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface GameSummary {
  description: string;
  ended: string;
  id: string;
  leaver?: number | null;
  players: Array<string>;
  preset: string;
  private?: boolean;
  reason: string;
  taken_over?: Array<number>;
  totals: Array<number>;
  winner: number | null;
}

export interface GetLeaderboard {
  limit?: number;
  preset?: Preset;
}

export interface GetLeaderboardCommand {
  body: GetLeaderboard;
  name: "get_leaderboard";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface GetRecord {
  game: string;
  invite?: string | null;
  token?: string | null;
}

export interface GetRecordCommand {
  body: GetRecord;
  name: "get_record";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface GetStandings {
  tournament: string;
}

export interface GetStandingsCommand {
  body: GetStandings;
  name: "get_standings";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface HandDeal {
  cards: Array<string>;
  event: number;
  hand: Array<string>;
  stock: number;
}

export interface HandDealCommand {
  body: HandDeal;
  name: "deal";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Hello {
  client?: string;
  name: string;
  password?: string | null;
  proxied_for?: string | null;
  resume?: ResumeRequest | null;
  role?: Role;
  ticket?: string | null;
}

export interface HelloCommand {
  body: Hello;
  name: "hello";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Joined {
  chat?: Array<ChatMessage>;
  resumed?: boolean;
  seat: number;
  side: number;
  table: string;
  token: string;
}

export interface JoinedCommand {
  body: Joined;
  name: "joined";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface JoinTable {
  invite?: string | null;
  table: string;
  token?: string | null;
}

export interface JoinTableCommand {
  body: JoinTable;
  name: "join_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type KnockoutTie = "rematch" | "deciding_round";

export interface Leaderboard {
  entries: Array<RatingEntry>;
  preset: Preset;
  unrated?: Array<UnratedGames>;
}

export interface LeaderboardCommand {
  body: Leaderboard;
  name: "leaderboard";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface LeaveTable {
  table: string;
}

export interface LeaveTableCommand {
  body: LeaveTable;
  name: "leave_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Left {
  reason?: string;
  table: string;
}

export interface LeftCommand {
  body: Left;
  name: "left";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface LegalMove {
  capture: Array<string>;
  card: string;
  index: number;
}

export interface ListGames {
  limit?: number;
  player?: string | null;
  preset?: Preset | null;
  tokens?: Array<string>;
}

export interface ListGamesCommand {
  body: ListGames;
  name: "list_games";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface ListTables {
  after?: string | null;
  limit?: number;
  players?: number | null;
  state?: TableState | null;
}

export interface ListTablesCommand {
  body: ListTables;
  name: "list_tables";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface MakeDeclaration {
  kind: DeclarationKind;
  turn?: number | null;
  wild?: number | null;
}

export interface MakeDeclarationCommand {
  body: MakeDeclaration;
  name: "declare";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface NameClaimed {
  name: string;
}

export interface NameClaimedCommand {
  body: NameClaimed;
  name: "name_claimed";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface PileInfo {
  cards: number;
  denari: number;
  primiera: number;
  scope: number;
  settebello: boolean;
}

export interface Ping {
  nonce?: number;
}

export interface PingCommand {
  body: Ping;
  name: "ping";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface PlayAt {
  play: number;
  round: number;
}

export interface PlayCard {
  capture?: Array<string>;
  card: string;
  turn?: number | null;
}

export interface PlayCardCommand {
  body: PlayCard;
  name: "play";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type PlayerKind = "person" | "bot";

export interface PlayLogEntry {
  bot?: boolean;
  captured: Array<string>;
  card: string;
  forced?: ForcedBy | null;
  scopa?: boolean;
  seat: number;
}

export interface Pong {
  nonce?: number;
}

export interface PongCommand {
  body: Pong;
  name: "pong";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type Preset = "scopa" | "scopone" | "scopone-scientifico" | "quindici" | "escoba" | "cirulla" | "frac" | "trentino";

export interface PublicView {
  captured: Array<Array<string>>;
  dealer: number;
  declared?: Array<DeclaredHand>;
  hand_sizes: Array<number>;
  last_capture_side?: number | null;
  piles?: Array<PileInfo>;
  round: number;
  round_plays?: Array<PlayLogEntry>;
  scopa_cards: Array<Array<string>>;
  scope: Array<number>;
  stock: number;
  table: Array<string>;
  totals: Array<number>;
  turn: number;
}

export interface QuickLeave {

}

export interface QuickLeaveCommand {
  body: QuickLeave;
  name: "quick_leave";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface QuickPlay {
  bot_after?: number | null;
  preset?: Preset;
}

export interface QuickPlayCommand {
  body: QuickPlay;
  name: "quick_play";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface QuickWaiting {
  others: number;
  preset: Preset;
}

export interface QuickWaitingCommand {
  body: QuickWaiting;
  name: "quick_waiting";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface RatingEntry {
  games: number;
  mu: number;
  name: string;
  rank: number;
  rating: number;
  sigma: number;
  wins: number;
}

export interface Record {
  first_dealer: number;
  format?: 1;
  game?: string | null;
  played_at?: string | null;
  players: Array<RecordPlayer>;
  result: RecordResult;
  rounds: Array<RecordRound>;
  rules: WireRules;
  seed: number;
}

export interface RecordDeclaration {
  declare: DeclarationKind;
  seat: number;
  wild?: number | null;
}

export interface RecordPlay {
  bot?: boolean;
  capture?: Array<string>;
  card: string;
  forced?: Forced | null;
  seat: number;
}

export interface RecordPlayer {
  kind: PlayerKind;
  name: string;
  seat: number;
  side: number;
  strategy?: string | null;
  taken_over?: boolean;
}

export interface RecordReply {
  game: string;
  record: Record;
}

export interface RecordReplyCommand {
  body: RecordReply;
  name: "record";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface RecordResult {
  reason: EndReason;
  totals: Array<number>;
  winner: number | null;
}

export interface RecordRound {
  actions: Array<RecordPlay | RecordDeclaration>;
  breakdown?: Array<{ [key: string]: unknown }> | null;
  dealer: number;
  deck: Array<string>;
  leftover?: Array<string>;
  leftover_to?: number | null;
  number: number;
  points?: Array<number> | null;
  totals: Array<number>;
  void_deals?: Array<Array<string>>;
}

export interface Redirect {
  address: string;
  table: string;
  ticket: string;
}

export interface RedirectCommand {
  body: Redirect;
  name: "redirect";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface ResumeRequest {
  last_event: number;
  table?: string | null;
  token: string;
}

export type Role = "player" | "spectator";

export interface RoundEnd {
  breakdown: Array<{ [key: string]: unknown }>;
  cards: Array<number>;
  event: number;
  leftover?: Array<string>;
  leftover_to?: number | null;
  points: Array<number>;
  round: number;
  tallies?: Array<SideTally>;
  totals: Array<number>;
}

export interface RoundEndCommand {
  body: RoundEnd;
  name: "round_end";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface RoundStart {
  dealer: number;
  dealer_bonus_cards?: Array<string>;
  dealer_bonus_scope?: number;
  event: number;
  round: number;
  stock: number;
  table: Array<string>;
  turn_left_ms?: number | null;
}

export interface RoundStartCommand {
  body: RoundStart;
  name: "round_start";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface SaveWaiting {
  reason?: string;
  waiting: boolean;
}

export interface SaveWaitingCommand {
  body: SaveWaiting;
  name: "save_waiting";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface SeatAway {
  event?: number | null;
  grace_seconds: number;
  name: string;
  seat: number;
}

export interface SeatAwayCommand {
  body: SeatAway;
  name: "seat_away";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface SeatBack {
  bot_played?: boolean;
  event?: number | null;
  name: string;
  seat: number;
  turn_left_ms?: number | null;
}

export interface SeatBackCommand {
  body: SeatBack;
  name: "seat_back";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface SeatInfo {
  bot?: boolean;
  bot_from?: PlayAt | null;
  bot_until?: PlayAt | null;
  name: string;
  seat: number;
  side: number;
}

export interface SeatReplaced {
  event?: number | null;
  name: string;
  seat: number;
  strategy: string;
}

export interface SeatReplacedCommand {
  body: SeatReplaced;
  name: "seat_replaced";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface SeatView {
  captured: Array<Array<string>>;
  dealer: number;
  declared?: Array<DeclaredHand>;
  hand: Array<string>;
  hand_sizes: Array<number>;
  last_capture_side?: number | null;
  piles?: Array<PileInfo>;
  round: number;
  round_plays?: Array<PlayLogEntry>;
  scopa_cards: Array<Array<string>>;
  scope: Array<number>;
  seat: number;
  side: number;
  stock: number;
  table: Array<string>;
  totals: Array<number>;
  turn: number;
}

export interface SideTally {
  cards: number;
  declarations?: number;
  denari: number;
  denari_run?: number;
  honours?: number;
  primiera: number;
  primiera_cards?: Array<string>;
  scope: number;
  settebello: boolean;
  sevens?: number;
}

export interface Snapshot {
  chat?: Array<ChatMessage>;
  event: number;
  last_round?: RoundEnd | null;
  public?: PublicView | null;
  seats?: Array<SeatInfo>;
  sides?: Array<Array<number>>;
  table: TableInfo;
  turn_left_ms?: number | null;
  you?: SeatView | null;
}

export interface SnapshotCommand {
  body: Snapshot;
  name: "snapshot";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type StandingsKey = "round_reached" | "match_points" | "buchholz" | "game_points" | "seed";

export interface StandingsRow {
  buchholz: number;
  byes: number;
  draws: number;
  entrant: string;
  game_points: number;
  losses: number;
  match_points: number;
  played: number;
  rank: number;
  wins: number;
}

export interface TableCreated {
  invite?: string | null;
  table: TableInfo;
}

export interface TableCreatedCommand {
  body: TableCreated;
  name: "table_created";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TableInfo {
  abandoned?: boolean;
  away?: Array<number>;
  bot_takeover?: boolean;
  bots?: Array<number>;
  description: string;
  id: string;
  member?: string | null;
  private?: boolean;
  rematch_of?: string | null;
  rules: WireRules;
  seats: Array<string | null>;
  spectators?: number;
  state: TableState;
  turn_timeout?: number | null;
}

export interface Tables {
  next?: string | null;
  tables: Array<TableInfo>;
  total?: number;
}

export interface TablesCommand {
  body: Tables;
  name: "tables";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type TableState = "waiting" | "playing" | "finished" | "closed";

export interface TableUpdate {
  table: TableInfo;
}

export interface TableUpdateCommand {
  body: TableUpdate;
  name: "table_update";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentCreate {
  bots_allowed?: boolean;
  cap: number;
  format: TournamentFormat;
  grace?: number;
  name: string;
  preset?: Preset;
  rounds?: number;
  starts_in?: number | null;
  tie_break?: KnockoutTie;
  token?: string | null;
}

export interface TournamentCreateCommand {
  body: TournamentCreate;
  name: "tournament_create";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type TournamentFormat = "swiss" | "round_robin" | "knockout";

export interface TournamentGame {
  decider?: boolean;
  first: string;
  replay?: number;
  second: string;
  table: number;
}

export interface TournamentInfo {
  cap: number;
  creator: string;
  entrants: Array<string>;
  format: TournamentFormat;
  id: string;
  name: string;
  phase: TournamentPhase;
  preset: Preset;
  round: number;
  rounds: number;
  starts_at: string | null;
}

export interface TournamentJoin {
  partner?: string | null;
  team?: string | null;
  tournament: string;
}

export interface TournamentJoinCommand {
  body: TournamentJoin;
  name: "tournament_join";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentLeave {
  tournament: string;
}

export interface TournamentLeaveCommand {
  body: TournamentLeave;
  name: "tournament_leave";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentList {
  finished?: boolean;
}

export interface TournamentListCommand {
  body: TournamentList;
  name: "tournament_list";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentNoTable {
  by?: string | null;
  kind: "knocked_out" | "bye" | "finished";
  name: string;
  place?: number | null;
  points?: number | null;
  round: number;
  tournament: string;
}

export interface TournamentNoTableCommand {
  body: TournamentNoTable;
  name: "tournament_no_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export type TournamentPhase = "registering" | "running" | "finished";

export interface TournamentRound {
  byes: Array<string>;
  games: Array<TournamentGame>;
  round: number;
  tournament: string;
}

export interface TournamentRoundCommand {
  body: TournamentRound;
  name: "tournament_round";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Tournaments {
  tournaments: Array<TournamentInfo>;
}

export interface TournamentsCommand {
  body: Tournaments;
  name: "tournaments";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentStandings {
  final?: boolean;
  ranked_by: Array<StandingsKey>;
  round: number;
  rows: Array<StandingsRow>;
  tournament: string;
}

export interface TournamentStandingsCommand {
  body: TournamentStandings;
  name: "tournament_standings";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentStart {
  tournament: string;
}

export interface TournamentStartCommand {
  body: TournamentStart;
  name: "tournament_start";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentTable {
  game: TournamentGame;
  grace_ms: number;
  round: number;
  seat: number;
  table: string;
  tournament: string;
}

export interface TournamentTableCommand {
  body: TournamentTable;
  name: "tournament_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface TournamentUpdate {
  tournament: TournamentInfo;
}

export interface TournamentUpdateCommand {
  body: TournamentUpdate;
  name: "tournament_update";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface UnratedGames {
  games: number;
  reason: string;
}

export interface UnwatchLobby {

}

export interface UnwatchLobbyCommand {
  body: UnwatchLobby;
  name: "unwatch_lobby";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface UnwatchTable {
  table: string;
}

export interface UnwatchTableCommand {
  body: UnwatchTable;
  name: "unwatch_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface WatchLobby {

}

export interface WatchLobbyCommand {
  body: WatchLobby;
  name: "watch_lobby";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface WatchTable {
  invite?: string | null;
  last_event?: number | null;
  table: string;
}

export interface WatchTableCommand {
  body: WatchTable;
  name: "watch_table";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface Welcome {
  cluster?: Array<string>;
  lan_hosts?: Array<string>;
  motd?: string;
  protocol: number;
  reading_time?: number | null;
  server: string;
  turn_timeout?: number | null;
  web_port?: number | null;
  you: string;
}

export interface WelcomeCommand {
  body: Welcome;
  name: "welcome";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}

export interface WireRules {
  asso_piglia_tutto?: AssoPigliaTutto;
  capture_mode?: CaptureMode;
  cirulla?: boolean;
  escoba?: boolean;
  frac?: boolean;
  hand_size?: number;
  max_two?: boolean;
  napola?: boolean;
  players?: 2 | 3 | 4 | 6;
  ponino?: boolean;
  preset?: Preset | null;
  quindici?: boolean;
  re_bello?: boolean;
  refill_each_turn?: boolean;
  table_cards?: number;
  target?: 11 | 16 | 21 | 31 | 51;
  teams?: boolean | null;
  trentino?: boolean;
}

export interface YourTurn {
  declarations?: Array<DeclarationOption>;
  event: number;
  legal: Array<LegalMove>;
  turn_left_ms?: number | null;
  view: SeatView;
}

export interface YourTurnCommand {
  body: YourTurn;
  name: "your_turn";
  re?: number | null;
  recipient: string;
  sender: string;
  seq: number;
  v: 2;
}
