#!/usr/bin/env node
// A Scopa bot in JavaScript: a TCP socket, @msgpack/msgpack and docs/PROTOCOL.md.
//
//   npm ci                                  # once, in this folder
//   node bot.js [[tls://]HOST:PORT[,...]] [--fingerprint SHA256] [--name NAME] [--protocol N] [--solo]
//               [--schema PATH | --no-schema]
//
// A tls:// address is reached over TLS (§1): the server's certificate is checked against
// Node's trust store (NODE_EXTRA_CA_CERTS adds one), or, with --fingerprint, it must be
// the certificate of that SHA-256 fingerprint (a server's self-signed one, as `scopa
// serve --tls self-signed` prints it); nothing is sent before it is checked.
//
// It says hello, joins the first table waiting for players (or, with --solo or when
// none waits, creates one with a server bot as the opponent), answers every
// `your_turn` with the legal move that captures the most cards, and exits after the
// game ends: status 0 when the game finished, 1 otherwise.  Keys and command names it
// does not know are ignored, as the protocol asks of clients.  A cluster's member that
// does not serve the table it joins sends it on (`redirect`): it says hello there with
// the ticket and joins again.  A connection lost while seated is made again, and the bot
// resumes its seat (`hello` with `resume`: the seat's token, the last event it got and the
// table), trying again a few times, as it does when told `unavailable`.  In a cluster it
// resumes through another member when its own is gone (§7 "Finding another member"):
// the addresses it was given (several, comma-separated) and those the welcome's
// `cluster` names are tried in turn, and a member silent at its table for 4 s (a ping
// after 1 s, unanswered 3 s later: §7 "Liveness") counts as gone.
//
// Every command it receives is checked against the published clients' schema
// (docs/protocol.client.schema.json, or --schema PATH): a command whose name the schema
// knows, against that command's own definition (unknown keys are allowed there).  Each
// violation is printed; any makes the exit status 1.

import fs from "node:fs";
import net from "node:net";
import process from "node:process";
import tls from "node:tls";
import { fileURLToPath } from "node:url";
import { decode, encode } from "@msgpack/msgpack";
import Ajv2020 from "ajv/dist/2020.js";

const DEFAULT_SCHEMA = fileURLToPath(new URL("../../docs/protocol.client.schema.json", import.meta.url));

const MAX_FRAME = 64 * 1024; // §1: the largest payload
const RETRIES = 10; // connections tried again after one is lost while seated
const RETRY_MS = 300; // waited before the n-th try: n times this
const LIVENESS = { ping: 5000, dead: 10000 }; // §7 Liveness: ping after this silence, give up this later
const HURRIED = { ping: 1000, dead: 3000 }; // the same at a table in a cluster

function parseArgs(argv) {
  const opts = { address: "127.0.0.1:7015", name: "jsbot", protocol: 2, solo: false, schema: DEFAULT_SCHEMA,
    fingerprint: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--name") opts.name = argv[++i];
    else if (arg === "--schema") opts.schema = argv[++i];
    else if (arg === "--no-schema") opts.schema = null;
    else if (arg === "--protocol") opts.protocol = Number.parseInt(argv[++i], 10);
    else if (arg === "--solo") opts.solo = true;
    else if (arg === "--fingerprint") opts.fingerprint = argv[++i].toUpperCase();
    else if (arg === "--help" || arg === "-h") {
      console.log("usage: node bot.js [[tls://]HOST:PORT[,...]] [--fingerprint SHA256] [--name NAME] [--protocol N] " +
        "[--solo] " +
        "[--schema PATH | --no-schema]");
      process.exit(0);
    } else opts.address = arg;
  }
  opts.addresses = opts.address.split(",").filter((a) => a.trim()).map((a) => splitAddress(a.trim()));
  const bad = opts.addresses.some(({ host, port }) => !host || !Number.isInteger(port) || port < 1 || port > 65535);
  if (opts.addresses.length === 0 || bad || !Number.isInteger(opts.protocol)) {
    console.error(`bad arguments: ${argv.join(" ")}`);
    process.exit(2);
  }
  return opts;
}

// §1: each frame is a 4-byte big-endian length, then one msgpack map of that many bytes.
class Wire {
  constructor(socket, protocol) {
    this.socket = socket;
    this.protocol = protocol;
    this.me = "guest"; // §3: our party; "guest" until the welcome
    this.seq = 0; // §2: we number the commands we send 1, 2, 3 ...
    this.buffer = Buffer.alloc(0);
  }

  send(name, body, recipient, re = null) {
    this.seq += 1;
    const payload = encode({ v: this.protocol, seq: this.seq, sender: this.me, recipient, re, name, body });
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(payload.length, 0);
    this.socket.write(Buffer.concat([prefix, Buffer.from(payload)]));
    return this.seq;
  }

  // Bytes in (any chunking), whole commands out.
  *commands(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const size = this.buffer.readUInt32BE(0);
      if (size > MAX_FRAME) throw new Error(`the server announced a ${size}-byte frame`);
      if (this.buffer.length < 4 + size) return;
      const payload = this.buffer.subarray(4, 4 + size);
      this.buffer = this.buffer.subarray(4 + size);
      const command = decode(payload);
      if (command !== null && typeof command === "object" && !Array.isArray(command)) yield command;
    }
  }
}

// The clients' schema: each received command against its own definition, found by its
// name in discriminator.mapping (validators ignore `discriminator`: going through the
// whole oneOf would try every definition).  Names the schema does not know are skipped.
class SchemaCheck {
  constructor(path) {
    this.schema = JSON.parse(fs.readFileSync(path, "utf8"));
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    this.ajv.addSchema(this.schema, "client");
    this.checked = 0;
    this.skipped = 0;
    this.violations = 0;
  }

  check(command) {
    const ref = this.schema.discriminator.mapping[command.name];
    if (ref === undefined) {
      this.skipped += 1;
      return;
    }
    const validate = this.ajv.getSchema(`client${ref}`);
    this.checked += 1;
    if (!validate(command)) {
      this.violations += 1;
      const why = validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
      console.error(`schema violation in ${command.name} (seq ${command.seq}): ${why}`);
    }
  }

  summary() {
    return `checked ${this.checked} commands against the schema, ${this.violations} schema violations` +
      (this.skipped ? `, ${this.skipped} of unknown names skipped` : "");
  }
}

// The legal move taking the most cards (the settebello counts double); the first on a tie.
function pickMove(legal) {
  const worth = (move) => move.capture.length + (move.capture.includes("7d") || move.card === "7d" ? 1 : 0);
  return legal.reduce((best, move) => (worth(move) > worth(best) ? move : best), legal[0]);
}

// {host, port, secure} -> "host:port" or "tls://host:port", as addresses are written
function written({ host, port, secure }) {
  return `${secure ? "tls://" : ""}${host.includes(":") ? `[${host}]` : host}:${port}`;
}

// "host:port", "[v6]:port", "tls://host:port" -> {host, port, secure}
function splitAddress(address) {
  const secure = address.toLowerCase().startsWith("tls://");
  const rest = secure ? address.slice("tls://".length) : address;
  const at = rest.lastIndexOf(":");
  return { host: rest.slice(0, at).replace(/^\[(.*)\]$/, "$1"), port: Number(rest.slice(at + 1)), secure };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const schema = opts.schema ? new SchemaCheck(opts.schema) : null;
  let socket = null;
  let wire = null;
  let name = opts.name;
  let tries = 1;
  let turns = 0;
  let finished = false;
  let again = null; // a join_table a redirect sent us elsewhere with: sent again there after the welcome
  let seat = null; // {table, token}: our seat, from `joined`, to resume it
  let lastEvent = 0; // the highest table event number received (§7 Reconnecting)
  let address = opts.addresses[0]; // where the seat plays (a redirect moves it)
  let learned = []; // §7 "Finding another member": the addresses the last welcome's `cluster` named
  let shunned = null; // the address that failed us last: tried last
  let welcomed = false; // this connection got its welcome
  let heard = Date.now(); // when the server last sent anything
  let pinged = false; // a ping is out since then
  let retries = 0; // connections made again since the last one that got back to the seat
  let leaving = false; // we said bye: a close is expected
  let moving = false; // told `unavailable`: the close of this connection is ours

  const stop = (status, message) => {
    if (message) (status === 0 ? console.log : console.error)(message);
    if (schema) console.log(schema.summary());
    process.exitCode = schema && schema.violations > 0 ? 1 : status;
    leaving = true;
    socket.end(() => socket.destroy()); // §6: the sender of bye closes the connection
  };

  // §7 Reconnecting: what a hello says to get our seat back.
  const resumeBody = () => ({ token: seat.token, last_event: lastEvent, table: seat.table });

  // Where to connect again: the address lost first (a restarted server is back there),
  // then the ones given, then the welcome's; the one that failed us last comes last.
  const nextAddress = () => {
    const seen = new Map();
    for (const a of [address, ...opts.addresses, ...learned]) if (!seen.has(written(a))) seen.set(written(a), a);
    const order = [...seen.values()];
    const last = order.findIndex((a) => shunned !== null && written(a) === written(shunned));
    if (last >= 0 && order.length > 1) order.push(order.splice(last, 1)[0]);
    return order[0];
  };

  // The connection is gone while seated: connect again and resume the seat.
  const resume = (why) => {
    if (retries >= RETRIES) {
      stop(1, `gave up resuming the seat after ${RETRIES} tries (${why})`);
      return;
    }
    retries += 1;
    address = nextAddress();
    console.error(`${why}: resuming the seat at table ${seat.table} at ${written(address)} (try ${retries})`);
    setTimeout(() => {
      open(address, { name, client: "examples/js/bot.js", resume: resumeBody() });
    }, RETRY_MS * retries);
  };

  // §7 Liveness: ping a quiet server; one that stays silent after the ping is gone.
  setInterval(() => {
    if (socket === null || socket.connecting || leaving || finished) return;
    const pace = learned.length > 0 && seat !== null ? HURRIED : LIVENESS;
    const quiet = Date.now() - heard;
    if (quiet >= pace.ping + pace.dead && pinged) {
      shunned = address;
      socket.destroy(); // "close" follows, and with it the resume
    } else if (quiet >= pace.ping && !pinged && wire.me !== "guest") {
      pinged = true;
      wire.send("ping", { nonce: 1 }, "lobby");
    }
  }, 250).unref();

  const handle = (cmd) => {
    const body = cmd.body ?? {};
    if (Number.isInteger(body.event)) lastEvent = Math.max(lastEvent, body.event);
    switch (cmd.name) {
      case "welcome":
        wire.me = body.you;
        welcomed = true;
        shunned = null;
        learned = (body.cluster ?? []).map(splitAddress);
        console.log(`connected as ${wire.me}`);
        if (seat !== null) break; // a resume: `joined` and the missed events follow
        if (again !== null) wire.send("join_table", again, "lobby");
        else if (opts.solo) wire.send("create_table", { preset: "scopa", fill_with_bots: ["random"] }, "lobby");
        else wire.send("list_tables", {}, "lobby");
        again = null;
        break;
      case "tables": {
        const waiting = body.tables.filter((t) => t.state === "waiting" && t.seats.includes(null));
        if (waiting.length > 0) wire.send("join_table", { table: waiting[0].id }, "lobby");
        else wire.send("create_table", { preset: "scopa", fill_with_bots: ["random"] }, "lobby");
        break;
      }
      case "redirect": {
        // §7 "A cluster's lobby": another member serves the table. Leave this one, say
        // hello there with the ticket (our name is ours there), then join again.
        console.log(`table ${body.table} plays at ${body.address}: going there`);
        const resuming = seat !== null;
        again = resuming ? null : { table: body.table };
        wire.send("bye", { reason: "sent to another server of the cluster" }, "lobby");
        const old = socket;
        old.end(() => old.destroy());
        address = splitAddress(body.address);
        const me = wire.me === "guest" ? name : wire.me.replace(/^player:/, ""); // a resume is sent on before its welcome
        const hello = { name: me, client: "examples/js/bot.js", ticket: body.ticket };
        if (resuming) hello.resume = resumeBody();
        open(address, hello);
        break;
      }
      case "joined":
        if (body.resumed) console.log(`${wire.me} is back at table ${body.table}, seat ${body.seat}`);
        else console.log(`${wire.me} sits at table ${body.table}, seat ${body.seat}`);
        seat = { table: body.table, token: body.token };
        retries = 0;
        break;
      case "your_turn": {
        // Any listed move is legal; `turn` says which your_turn this answers (§7).
        const move = pickMove(body.legal);
        turns += 1;
        wire.send("play", { card: move.card, capture: move.capture, turn: body.event }, cmd.sender, cmd.seq);
        break;
      }
      case "ping":
        wire.send("pong", { nonce: body.nonce ?? 0 }, cmd.sender, cmd.seq);
        break;
      case "error":
        console.error(`error: ${body.code}: ${body.message}`);
        if (seat !== null && wire.me === "guest" && body.code === "unavailable") {
          // §7 "A cluster's lobby": the table is between two servers; ask again shortly.
          moving = true; // the close that follows resumes
          socket.end(() => socket.destroy());
        } else if (seat !== null && wire.me === "guest" && body.code === "bad_token") {
          stop(1, "the seat could not be resumed");
        } else if (body.code === "name_taken" && wire.me === "guest") {
          tries += 1;
          name = `${opts.name}${tries}`;
          wire.send("hello", { name, client: "examples/js/bot.js" }, "lobby");
        } else if (body.fatal) {
          stop(1);
        }
        break;
      case "game_end":
        finished = body.reason !== "abandoned";
        console.log(
          `game over (${body.reason}): winner side ${body.winner}, totals ${JSON.stringify(body.totals)}; ` +
            `answered ${turns} turns`,
        );
        wire.send("bye", { reason: "good game" }, "lobby");
        stop(finished ? 0 : 1);
        break;
      case "bye":
        // §7 "Tables moving": a member that stops says bye to its seats; the close that
        // follows resumes the seat (on another member).
        if (seat !== null) console.error(`the server said bye: ${body.reason}`);
        else stop(1, `the server said bye: ${body.reason}`);
        break;
      default:
        // deal, played, round_start, table_update ... and anything newer: nothing to do.
        break;
    }
  };

  // One connection (a redirect makes the next one): hello once connected (over TLS, once
  // the certificate is checked), commands in.
  const open = ({ host, port, secure }, hello) => {
    const pinned = secure && opts.fingerprint !== null;
    const mine = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, minVersion: "TLSv1.2",
        rejectUnauthorized: !pinned })
      : net.createConnection({ host, port });
    socket = mine;
    wire = new Wire(mine, opts.protocol);
    welcomed = false;
    heard = Date.now();
    pinged = false;
    const ours = wire;
    mine.on(secure ? "secureConnect" : "connect", () => {
      const shown = pinned ? mine.getPeerCertificate().fingerprint256 : null;
      if (pinned && shown !== opts.fingerprint) {
        stop(1, `the server at tls://${host}:${port} shows the certificate ${shown}, not ${opts.fingerprint}: ` +
          "nothing was sent to it");
        return;
      }
      ours.send("hello", hello, "lobby");
    });
    mine.on("data", (chunk) => {
      heard = Date.now();
      pinged = false;
      try {
        for (const cmd of ours.commands(chunk)) {
          if (mine.writableEnded) return;
          if (schema) schema.check(cmd);
          handle(cmd);
        }
      } catch (err) {
        stop(1, `cannot read the server: ${err.message}`);
      }
    });
    mine.on("error", (err) => {
      console.error(`connection error: ${err.message}`); // "close" follows
    });
    mine.on("close", () => {
      if (mine !== socket || finished || leaving || process.exitCode !== undefined) return;
      if (!welcomed) shunned = address; // refused, or no answer there: try the others first
      if (seat !== null) resume(moving ? "the table is moving" : "the connection was lost");
      else if (!welcomed && opts.addresses.indexOf(address) + 1 < opts.addresses.length) {
        address = opts.addresses[opts.addresses.indexOf(address) + 1]; // not in yet: the next address given
        open(address, { name, client: "examples/js/bot.js" });
      } else {
        console.error("the server closed the connection before the game ended");
        process.exitCode = 1;
      }
    });
  };

  open(address, { name, client: "examples/js/bot.js" });
}

main();
