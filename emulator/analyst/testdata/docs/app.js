import { readFile } from 'fs/promises';
const path = require('path');

function total(items) {
  return items.reduce((a, b) => a + b, 0);
}

const average = (items) => total(items) / items.length;

export class Basket {
  constructor() { this.items = []; }
}
