<?php
require_once 'config.php';
use App\Models\User;

function greet($name) {
    return "Hello " . $name;
}

echo greet("Ana");
