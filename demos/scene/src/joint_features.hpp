// A scene joint's limit, motor and spring on the engine's definition: one
// mapping for the loader, which validates the definition, and the runner,
// which creates the joint from it.
#pragma once

#include <carom/constants.hpp>
#include <carom/joint.hpp>
#include <carom/scene.hpp>

namespace carom::scene::detail {

inline void applyFeatures(RevoluteJointDef& d, const JointDesc& j) {
    if (j.limit) {
        d.enableLimit = true;
        d.lowerAngle = j.limit->lower;
        d.upperAngle = j.limit->upper;
    }
    if (j.motor) {
        d.enableMotor = true;
        d.motorSpeed = j.motor->speed;
        d.maxMotorTorque = j.motor->maxForce;
    }
    if (j.spring) {
        d.enableSpring = true;
        d.hertz = j.spring->hertz;
        d.dampingRatio = j.spring->dampingRatio;
        d.targetAngle = j.spring->target;
    }
}

inline void applyFeatures(PrismaticJointDef& d, const JointDesc& j) {
    if (j.limit) {
        d.enableLimit = true;
        d.lowerTranslation = j.limit->lower;
        d.upperTranslation = j.limit->upper;
    }
    if (j.motor) {
        d.enableMotor = true;
        d.motorSpeed = j.motor->speed;
        d.maxMotorForce = j.motor->maxForce;
    }
    if (j.spring) {
        d.enableSpring = true;
        d.hertz = j.spring->hertz;
        d.dampingRatio = j.spring->dampingRatio;
        d.targetTranslation = j.spring->target;
    }
}

// The length limit (a missing bound: 0 or kHuge), spring and motor; the
// rest length, whose default depends on the caller, is set by it.
inline void applyFeatures(DistanceJointDef& d, const JointDesc& j) {
    if (j.minLength || j.maxLength) {
        d.enableLimit = true;
        d.minLength = j.minLength.value_or(0.0f);
        d.maxLength = j.maxLength.value_or(kHuge);
    }
    if (j.spring) {
        d.enableSpring = true;
        d.hertz = j.spring->hertz;
        d.dampingRatio = j.spring->dampingRatio;
    }
    if (j.motor) {
        d.enableMotor = true;
        d.motorSpeed = j.motor->speed;
        d.maxMotorForce = j.motor->maxForce;
    }
}

inline void applyFeatures(WheelJointDef& d, const JointDesc& j) {
    if (j.spring) {
        d.enableSpring = true;
        d.hertz = j.spring->hertz;
        d.dampingRatio = j.spring->dampingRatio;
    }
    if (j.limit) {
        d.enableLimit = true;
        d.lowerTranslation = j.limit->lower;
        d.upperTranslation = j.limit->upper;
    }
    if (j.motor) {
        d.enableMotor = true;
        d.motorSpeed = j.motor->speed;
        d.maxMotorTorque = j.motor->maxForce;
    }
}

}  // namespace carom::scene::detail
