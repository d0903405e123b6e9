package dev.sluice.fake;
