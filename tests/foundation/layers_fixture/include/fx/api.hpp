// A public header of the bottom layer.
#pragma once
