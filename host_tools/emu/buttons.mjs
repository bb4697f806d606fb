// What the board senses: its buttons and its battery.
//
// Push buttons from a GPIO to GND: pressed reads 0; released reads what the
// pad's pull resistor makes it (rp2040js tracks the pad settings but drives
// nothing from them), so a button whose pull-up the firmware forgot reads 0.
export class Buttons {
  constructor(mcu, clock, pins, { onEdge = () => {} } = {}) {
    this.clock = clock;
    this.pins = pins; // {name: gpio}
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
    const level = !this.down.has(name) && pin.pullupEnabled && !pin.pulldownEnabled;
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
// are ADC channels 0..3; 12 bits of a 3.3 V reference).
export function senseBattery(mcu, { gpio, divider, volts }) {
  const counts = Math.round(Math.min(4095, (volts / divider / 3.3) * 4095));
  mcu.adc.channelValues[gpio - 26] = counts;
}
