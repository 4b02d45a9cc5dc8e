//! The engine's index: permutation ranks with the parity half dropped (`rank`) and the dense
//! layout of one parity class's (RC)!/2 states (`space`).

pub mod rank;
pub mod space;
