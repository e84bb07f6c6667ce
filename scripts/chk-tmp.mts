import { checkSimulation } from "../src/solver/entry-points.ts";
const H = 1e-6/30;
const s:any = {solver:"fdtd",domain:{size:[1e-6,H,1e-6],resolution:H,boundary_conditions:["pml","periodic","pml"],pml_layers:12},
 source:{source_type:"point_dipole",wavelength:1e-6,center:[0,0,0],polarization:"Ey",amplitude:1e-8},
 structures:[],fdtd_settings:{time_steps:1000,courant_factor:0.99},monitors:[{name:"ff",monitor_type:"far_field",center:[0,0,0],size:[0.6e-6,H,0.6e-6],wavelengths:[1e-6]}]};
console.log(checkSimulation(s));
s.monitors[0].size=[0.6e-6,0,0.6e-6]; console.log(checkSimulation(s));
