pub mod dat;
