// What the board senses: its buttons and its battery.
//
// Push buttons from a GPIO to GND (pressed = 0, the Pico board) or to 3V3
// (pressed = 1, the Badger): pressed reads that level; released reads what
// the pad's pull resistor makes it (rp2040js tracks the pad settings but
// drives nothing from them, and reads a pin with no pull as 0), so a button
// to GND whose pull-up the firmware forgot reads "pressed" as does a button
// to 3V3 that the firmware pulled up instead of down.
export class Buttons {
  constructor(mcu, clock, pins, { pressed = 0, onEdge = () => {} } = {}) {
    this.clock = clock;
    this.pins = pins; // {name: gpio}
    this.pressedLevel = !!pressed;
    this.down = new Set();
    this.onEdge = onEdge;
    this.gpio = {};
    for (const [name, n] of Object.entries(pins)) {
      const pin = mcu.gpio[n];
      this.gpio[name] = pin;
      pin.addListener(() => this.drive(name));
      this.drive(name);
    }
  }

  drive(name) {
    const pin = this.gpio[name];
    const level = this.down.has(name) ? this.pressedLevel : pin.pullupEnabled && !pin.pulldownEnabled;
    if (pin.rawInputValue !== level) pin.setInputValue(level);
  }

  check(name) {
    if (!(name in this.gpio)) throw new Error(`no button ${name}: the board has ${Object.keys(this.gpio).join(', ')}`);
  }

  press(name) {
    this.check(name);
    this.down.add(name);
    this.drive(name);
    this.onEdge(name, true, this.clock.nanos);
  }

  release(name) {
    this.check(name);
    this.down.delete(name);
    this.drive(name);
    this.onEdge(name, false, this.clock.nanos);
  }

  // Press, and release after `ms` of emulated time.
  tap(name, ms) {
    this.press(name);
    const up = this.clock.createAlarm(() => this.release(name));
    up.schedule(ms * 1e6);
  }
}

// The battery voltage through the board's divider on an ADC pin (GPIO 26..29
// are ADC channels 0..3; 12 bits of a 3.3 V reference), and where the board
// has one (the Badger 2040) its voltage reference on another ADC pin.
export function senseBattery(mcu, { gpio, divider, volts, vref = null, vrefVolts = null }) {
  const counts = (v) => Math.round(Math.min(4095, (v / 3.3) * 4095));
  mcu.adc.channelValues[gpio - 26] = counts(volts / divider);
  if (vref !== null) mcu.adc.channelValues[vref - 26] = counts(vrefVolts);
}

// The power latch (the Badger's ENABLE_3V3): every change of the level the
// firmware drives on it, {t, level} (level null: not an output).
export function watchLatch(mcu, clock, gpio, onChange) {
  const pin = mcu.gpio[gpio];
  let last;
  const check = () => {
    const level = pin.outputEnable ? (pin.outputValue ? 1 : 0) : null;
    if (level !== last) { last = level; onChange({ t: clock.nanos, level }); }
  };
  pin.addListener(check);
  check();
}
