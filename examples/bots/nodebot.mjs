#!/usr/bin/env node
// An example tne-bot/1 bot in JavaScript for Node.js (no packages needed).
//
// It speaks the protocol of docs/formats.md ("Bot protocol") over standard input and output,
// one JSON object a line. It keeps the public scores it hears (the "points_scored" events of
// its seat) and plays a rule of thumb: take treasures and monuments, commit all the support
// it may, and otherwise draw among the legal actions weighted by kind, a tile in the colour
// it is weakest in most, with its own seeded generator, so a game replays the same. Diagnostics go to
// standard error, which the referee keeps in a file.
//
// Run it in a tournament:  tne tournament --bots 'cmd:node examples/bots/nodebot.mjs',greedy

import { createInterface } from "node:readline";

const PROTOCOL = "tne-bot/1";
const COLOURS = ["red", "blue", "green", "black"];
// How much an action of each kind is worth drawing (the first word of its notation).
const WEIGHTS = { building: 20, leader: 2, decline: 0.5, swap: 0.3, catastrophe: 0.2, withdraw: 0.1, pass: 0.05 };

// mulberry32: a small seeded generator (numbers in [0, 1)).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = generator(0);
let seat = 0;
let points = [0, 0, 0, 0]; // this seat's points per colour, as heard

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function pick(list) {
  return list[Math.floor(random() * list.length)];
}

function choose(view) {
  const legal = view.legal_actions;
  const first = (word) => legal.filter((a) => a.split(" ")[0] === word);
  if (legal.length === 1) return legal[0];
  for (const word of ["treasure", "monument", "wonder"]) {
    if (first(word).length) return pick(first(word));
  }
  const commits = first("commit");
  if (commits.length) {
    return commits.reduce((a, b) => (Number(b.split(" ")[1]) > Number(a.split(" ")[1]) ? b : a));
  }
  // Otherwise a draw weighted by kind, a tile in this seat's weakest colour (as heard) most.
  const weakest = Math.min(...points);
  const weight = (action) => {
    const [kind, colour] = action.split(" ");
    if (kind === "tile") return points[COLOURS.indexOf(colour)] === weakest ? 8 : 3;
    return WEIGHTS[kind] ?? 1;
  };
  const weights = legal.map(weight);
  let left = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < legal.length; i++) {
    left -= weights[i];
    if (left <= 0) return legal[i];
  }
  return legal[legal.length - 1];
}

function handle(message) {
  switch (message.type) {
    case "hello":
      if (message.protocol !== PROTOCOL) {
        process.stderr.write(`unknown protocol ${message.protocol}\n`);
        process.exit(1);
      }
      send({ type: "hello", protocol: PROTOCOL, name: "nodebot", author: "tigris-euphrates examples", options: {} });
      break;
    case "new_game":
      random = generator(message.seed);
      seat = message.seat;
      points = [0, 0, 0, 0];
      process.stderr.write(`new game: seat ${seat} of ${message.players}\n`);
      break;
    case "events":
      for (const event of message.events) {
        if (event.type === "points_scored" && event.seat === seat && COLOURS.includes(event.colour)) {
          points[COLOURS.indexOf(event.colour)] += event.points ?? 1;
        }
      }
      break;
    case "decide":
      send({ type: "action", id: message.id, action: choose(message.view) });
      break;
    case "end":
      process.stderr.write(`game over: ranking ${JSON.stringify(message.result.ranking)}\n`);
      break;
    case "quit":
      process.exit(0);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim()) handle(JSON.parse(line));
});
