// Deckahedron handheld: a printable bumper for the Pimoroni Badger 2040 / 2040 W
// with a 500 mAh LiPo on its back.
//
// A rim around the board's edge (the board is a friction fit) and a back
// frame that holds the flat LiPo against the board; the front is left open,
// so the screen and all five front buttons stay free. Print open side up,
// no supports. For a full enclosure with screws see the Printables
// "Badger 2040 enclosure" by Andreas Kanner (model 167251).
//
//   part = "bumper" | "fit" (a 3 mm tall ring to test the board's fit first)
//
// Sizes (mm): Pimoroni spec for the Badger 2040: 85 x 48 x 9 mm; battery: a
// flat 500 mAh LiPo with JST-PH lead (Adafruit 1578; measure yours, pouch
// cells of the same capacity vary by a few mm). The USB-C (Badger 2040) or
// micro-USB (Badger 2040 W, on its Pico W) and the JST-PH socket need
// openings: set their positions from your board (usb_*, jst_*).

part = "bumper";

board_w = 85.0;
board_h = 48.0;
board_t = 9.0;          // overall thickness, front of screen to back of parts
clear = 0.25;           // friction fit; raise to 0.35 if your printer runs tight
bat_w = 30;             // battery pocket in the back frame
bat_h = 36;
bat_t = 5.0;
wall = 1.8;
back = 1.6;             // back plate under the battery
corner_r = 3;

usb_edge = "top";       // "top" | "left" | "right": the edge the USB socket is on
usb_pos = 0;            // socket centre along that edge, from the edge's centre
usb_w = 12;
usb_h = 7;
jst_x = 0;              // JST-PH socket on the back, from the board's centre
jst_y = 14;
jst_w = 10;
jst_h = 8;
lanyard_d = 4;          // two holes in the top rim for a lanyard (0: none)
side_win = 20;          // width of the two back windows beside the battery

$fn = 40;

ow = board_w + 2 * (clear + wall);
oh = board_h + 2 * (clear + wall);
depth = back + bat_t + board_t;          // the rim reaches the front of the board

module rbox(w, h, d, r) {
    hull() for (x = [r, w - r], y = [r, h - r]) translate([x, y, 0]) cylinder(r = r, h = d);
}

module bumper() {
    difference() {
        rbox(ow, oh, depth, corner_r);
        // the board
        translate([wall, wall, back + bat_t]) rbox(board_w + 2 * clear, board_h + 2 * clear, board_t + 1, 2);
        // the battery pocket, resting on a 3 mm ledge of the back plate
        translate([ow / 2 - bat_w / 2, oh / 2 - bat_h / 2, back]) cube([bat_w, bat_h, bat_t + 0.1]);
        translate([ow / 2 - bat_w / 2 + 3, oh / 2 - bat_h / 2 + 3, -1]) cube([bat_w - 6, bat_h - 6, back + 2]);
        // windows either side of the pocket: reach the board's rear BOOT/RESET buttons
        for (side = [-1, 1])
            translate([ow / 2 + side * (bat_w / 2 + 3 + side_win / 2) - side_win / 2, wall + 4, -1])
                cube([side_win, oh - 2 * wall - 8, back + bat_t + 1.1]);
        // USB socket
        if (usb_edge == "top")
            translate([ow / 2 + usb_pos - usb_w / 2, oh - wall - 1, depth - board_t / 2 - usb_h / 2]) cube([usb_w, wall + 2, usb_h]);
        else if (usb_edge == "left")
            translate([-1, oh / 2 + usb_pos - usb_w / 2, depth - board_t / 2 - usb_h / 2]) cube([wall + 2, usb_w, usb_h]);
        else
            translate([ow - wall - 1, oh / 2 + usb_pos - usb_w / 2, depth - board_t / 2 - usb_h / 2]) cube([wall + 2, usb_w, usb_h]);
        // battery lead to the JST-PH socket
        translate([ow / 2 + jst_x - jst_w / 2, oh / 2 + jst_y - jst_h / 2, back - 0.01]) cube([jst_w, jst_h, bat_t + 1]);
        // lanyard holes through the top rim
        if (lanyard_d > 0)
            for (x = [ow / 2 - 30, ow / 2 + 30])
                translate([x, oh + 1, depth - board_t - bat_t / 2]) rotate([90, 0, 0]) cylinder(d = lanyard_d, h = wall + 3.3);
    }
}

module fit() {
    intersection() {
        bumper();
        translate([-1, -1, depth - 3]) cube([ow + 2, oh + 2, 3.01]);
    }
}

echo(str("DECKAHEDRON BUMPER outer ", ow, " x ", oh, " x ", depth, " mm"));

if (part == "fit") fit(); else bumper();
