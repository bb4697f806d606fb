// Deckahedron handheld: case for a Raspberry Pi Pico + Waveshare Pico-ePaper-2.9
// with five 6 x 6 mm tactile buttons (A, B, C under the screen; UP, DOWN to
// its right, the Badger 2040 layout) and a flat LiPo behind the Pico.
//
// Two printed parts, no supports needed:
//   part = "bezel"  front plate: screen window, button holes (print face down)
//   part = "tray"   back shell: holds the module, Pico, battery (print open side up)
//   part = "fit"    a 0.6 mm slice of the bezel to check the window and the
//                   holes against your module before printing the rest
//   part = "all"    both, side by side (preview)
//
// Every size is a parameter (mm). Vendor figures:
//   Waveshare Pico-ePaper-2.9: "Outline dimension (with driver board): 82.0mm x 38.0mm",
//     "Display size: 66.89mm x 29.05mm", raw panel 79.0 x 36.7 x 1.05 mm.
//   Raspberry Pi Pico: 21 mm x 51 mm (Pico product brief).
//   Battery: a 503562-size LiPo (Adafruit 258, 1200 mAh: 5 x 35 x 62 mm by the
//     cell-size code on its drawing).
// Not published, so measure your module and adjust: where the display's
// active area sits on the module (window_dx, window_dy), where the Pico's USB
// end is (usb_* below), the stack height (header_h).
//
// Assembly: the module rests on two ledges with its panel flush with the
// tray's rim; the bezel closes it with three M2 x 6 self-tapping screws into
// the corner posts. The button board (a strip of protoboard with the five
// switches) is glued to the back of the bezel, plungers through the holes.

part = "all";           // "bezel" | "tray" | "fit" | "all"

/* [Module and screen] */
module_w = 82.0;        // Waveshare outline with driver board
module_h = 38.0;
module_pcb_t = 1.6;     // driver board thickness
panel_t = 1.05;         // raw panel on top of the driver board
view_w = 66.89;         // active area
view_h = 29.05;
window_margin = 0.8;    // window larger than the active area on each side
window_dx = 0;          // active-area centre minus module centre, +x towards the UP/DOWN side
window_dy = 0;          // +y towards the top edge

/* [Pico and stack] */
header_h = 8.5;         // female header on the module + male pins of the Pico (typ. 8.5 mm)
pico_w = 21;
pico_l = 51;
pico_t = 1.0;
pico_parts = 1.6;       // tallest part on the Pico's far side (BOOTSEL button, USB)
usb_on_left = true;     // the Pico's USB end points to the left short side (A side)
usb_y = 0;              // USB centre minus module centre along y
usb_w = 12;             // cut-out for a micro-USB plug overmould
usb_h = 8;

/* [Battery] */
bat_l = 62;
bat_w = 35;
bat_t = 5.0;

/* [Buttons] */
plunger_d = 4.0;        // hole for a 6 x 6 mm tactile switch plunger (use 6x6x7 mm switches)
strip_bottom = 14;      // height of the button strip under the screen (A B C)
strip_right = 13;       // width of the strip right of the screen (UP DOWN)
abc_pitch = 22;         // spacing of A, B, C
updown_pitch = 16;      // spacing of UP, DOWN

/* [Shell] */
wall = 2.0;
plate = 1.6;            // bezel thickness
clear = 0.4;            // clearance around the module
corner_r = 3;
screw_d = 1.8;          // pilot hole for M2 self-tapping screws (M2 x 6)
screw_head_d = 4.0;
post_d = 5.5;
rib_w = 1.4;            // ledge under the module's long edges (the panel leaves ~1.5 mm of PCB bare there)

$fn = 48;

inner_w = module_w + 2 * clear + strip_right;
inner_h = module_h + 2 * clear + strip_bottom;
outer_w = inner_w + 2 * wall;
outer_h = inner_h + 2 * wall;
// from the front of the panel to the inside of the back wall
stack = panel_t + module_pcb_t + header_h + pico_t + pico_parts + bat_t + 1.0;
tray_d = stack + wall;
ledge_z = tray_d - panel_t - module_pcb_t;   // the module's back rests here; its panel is flush with the rim

// the module's lower-left corner in the cavity
mod_x = wall + clear;
mod_y = wall + strip_bottom + clear;
mod_cx = mod_x + module_w / 2;
mod_cy = mod_y + module_h / 2;

// button centres on the plate, with their labels (A B C under the screen, UP DOWN right of it)
buttons = [
    ["A",    mod_cx - abc_pitch, wall + strip_bottom / 2],
    ["B",    mod_cx,             wall + strip_bottom / 2],
    ["C",    mod_cx + abc_pitch, wall + strip_bottom / 2],
    ["UP",   mod_x + module_w + clear + strip_right / 2, mod_cy + updown_pitch / 2],
    ["DOWN", mod_x + module_w + clear + strip_right / 2, mod_cy - updown_pitch / 2],
];
// screw posts in three corners of the cavity (the module fills the fourth)
post_in = wall + post_d / 2 - 0.6;  // posts merge 0.6 mm into the walls
screws = [[post_in, post_in],
          [outer_w - post_in, post_in],
          [outer_w - post_in, outer_h - post_in]];

module rounded_box(w, h, d, r) {
    hull() for (x = [r, w - r], y = [r, h - r]) translate([x, y, 0]) cylinder(r = r, h = d);
}

// The bezel is laid out as seen from the front (the tray's coordinates) and
// then mirrored, because it prints face down: z = 0 is its front face.
module bezel() {
    translate([outer_w, 0, 0]) mirror([1, 0, 0]) bezel_front();
}

module bezel_front() {
    difference() {
        rounded_box(outer_w, outer_h, plate, corner_r);
        // screen window, chamfered outwards so its edge does not shade the panel
        translate([mod_cx + window_dx, mod_cy + window_dy, 0])
            hull() {
                translate([0, 0, plate + 0.01])
                    cube([view_w + 2 * window_margin, view_h + 2 * window_margin, 0.02], center = true);
                translate([0, 0, -0.01])
                    cube([view_w + 2 * window_margin + 2 * plate, view_h + 2 * window_margin + 2 * plate, 0.02], center = true);
            }
        for (b = buttons) translate([b[1], b[2], -1]) cylinder(d = plunger_d, h = plate + 2);
        for (s = screws) translate([s[0], s[1], -1]) {
            cylinder(d = screw_d + 0.6, h = plate + 2);
            cylinder(d = screw_head_d, h = 0.8 + 1);  // counterbore for the head
        }
        // labels engraved 0.4 mm into the front face
        for (b = buttons)
            translate([b[1], b[2] + plunger_d / 2 + 1.2, -0.01])
                linear_extrude(0.4)
                    text(b[0], size = 2.2, halign = "center", valign = "bottom", font = "Liberation Sans:style=Bold");
    }
}

module tray() {
    difference() {
        rounded_box(outer_w, outer_h, tray_d, corner_r);
        translate([wall, wall, wall]) cube([inner_w, inner_h, tray_d]);
        // USB plug access on the short side the Pico's USB end faces, at the Pico's depth
        usb_z = ledge_z - header_h - pico_t / 2;
        translate([usb_on_left ? -1 : outer_w - wall - 1, mod_cy + usb_y - usb_w / 2, usb_z - usb_h / 2])
            cube([wall + 2, usb_w, usb_h]);
        // window for the LiPo SHIM's power button and LEDs, beside the USB opening
        translate([usb_on_left ? -1 : outer_w - wall - 1, mod_cy + usb_y + usb_w / 2 + 2, usb_z - 3])
            cube([wall + 2, 7, 6]);
    }
    // ledges under the module's two long edges
    for (y = [mod_y, mod_y + module_h - rib_w])
        translate([mod_x + 4, y, wall - 0.01]) cube([module_w - 8, rib_w, ledge_z - wall + 0.01]);
    // screw posts up to the rim
    for (s = screws) translate([s[0], s[1], 0]) difference() {
        cylinder(d = post_d, h = tray_d);
        translate([0, 0, wall]) cylinder(d = screw_d, h = tray_d);
    }
    // two low stops that keep the battery centred on the back wall
    translate([mod_cx - bat_l / 2 - 1.4, mod_cy - bat_w / 2, wall - 0.01]) cube([1.2, bat_w, 2]);
    translate([mod_cx + bat_l / 2 + 0.2, mod_cy - bat_w / 2, wall - 0.01]) cube([1.2, bat_w, 2]);
}

module fit() {
    intersection() {
        bezel();
        translate([-1, -1, -0.01]) cube([outer_w + 2, outer_h + 2, 0.61]);
    }
}

echo(str("DECKAHEDRON CASE outer ", outer_w, " x ", outer_h, " x ", tray_d + plate, " mm"));

if (part == "bezel") bezel();
else if (part == "tray") tray();
else if (part == "fit") fit();
else {
    bezel();
    translate([0, outer_h + 10, 0]) tray();
}
